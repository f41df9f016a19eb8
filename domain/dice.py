"""Dice notation rolled by a recordable, reproducible dice source.

The notation's grammar, tree and limits are in `notation.py`; `parse` gives an `Expression` (the text as
written and its tree) and `Dice.evaluate` rolls one, walking the tree left to right, so the dice are drawn
in the order they are written (a flat sum draws exactly as before parentheses and `*` existed).

The generator is counter based: face *i* of an event is a pure function of (seed, i), so the
event's seed plus its recorded rolls reproduce every face, and a replay that needs more dice
than were recorded keeps drawing from the same sequence. The ledger's fair dice (`fair_dice.py`,
docs/fair-dice.md) are drawn the same way from a stream of their own: `draws` then counts its values.
"""

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from pydantic import Field

from .dice_tree import OPERATORS, BinaryOp, DiceTerm, Negative, Node, Number, walk
from .errors import BadInput
from .fair_dice import FairSeed, FairStream
from .model import Int64, Model, within_int64
from .notation import MAX_LENGTH, parse_tree


@dataclass(frozen=True)
class Expression:
    """Parsed notation: `text` as written (what events record and re-derive from) and its tree."""

    text: str
    root: Node
    dice: tuple[DiceTerm, ...]  # the dice terms in rolled order

    def __str__(self) -> str:
        return self.text

    @property
    def bounds(self) -> tuple[int, int]:
        """The lowest and highest totals the expression can give."""
        return self.root.bounds


def parse(notation: str) -> Expression:
    """Parse dice notation; anything outside the grammar or its limits is `BadInput`."""
    if len(notation) <= MAX_LENGTH:  # an Expression is immutable: parse each notation once (re-derivation rolls many)
        return _parse_cached(notation)
    return _parse(notation)


@functools.lru_cache(maxsize=1024)
def _parse_cached(notation: str) -> Expression:
    return _parse(notation)


def _parse(notation: str) -> Expression:
    root = parse_tree(notation)
    return Expression(notation.strip(), root, tuple(n for n in walk(root) if isinstance(n, DiceTerm)))


class Roll(Model):
    """One named draw of dice within an event: what was rolled, for what, and by whom."""

    purpose: str
    sides: Int64
    faces: tuple[Int64, ...]
    source: Literal["ledger", "table"] = "ledger"
    notation: str | None = None


def _unfair(value: object) -> bool:
    return value is None


class DiceRecord(Model):
    """Everything needed to reproduce an event's dice: the seed, how many faces it drew, the rolls; for
    the ledger's fair dice, the seeds they came from (`fair`, left out of other events' JSON, whose bytes
    and hashes stay as they were)."""

    seed: Int64 = 0  # the ledger draws 63-bit seeds; `--seed` may be any number, so it is checked here
    draws: Int64 = 0
    rolls: tuple[Roll, ...] = ()
    fair: FairSeed | None = Field(None, exclude_if=_unfair)

    @property
    def source(self) -> str:
        return "table" if any(r.source == "table" for r in self.rolls) else "ledger"


class RollResult(NamedTuple):  # a tuple: verify and import make one for every roll they re-derive
    notation: str
    total: int
    faces: tuple[int, ...]
    kept: tuple[bool, ...]
    source: str


def face(seed: int, index: int, sides: int) -> int:
    """The `index`-th die of the sequence `seed`, uniform on 1..sides (rejection sampling)."""
    limit = (1 << 64) - (1 << 64) % sides
    attempt = 0
    while True:
        digest = hashlib.blake2b(f"{seed}:{index}:{attempt}".encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "big")
        if value < limit:
            return value % sides + 1
        attempt += 1


class Dice:
    """A dice source for one event.

    `table` holds results the table rolled itself, by purpose (`{"save": [14]}`); they are used
    first and recorded with source "table". `replaying` holds an earlier record: its rolls are
    handed back in order, purpose by purpose, so a re-derivation sees the same dice. `fair` gives
    the ledger's fair seed when the first die the ledger rolls needs one (a roll from the table's
    dice alone reveals none); the dice are then drawn from its stream rather than from `seed`.
    """

    def __init__(
        self,
        seed: int,
        table: dict[str, list[int]] | None = None,
        replaying: DiceRecord | None = None,
        fair: Callable[[], FairSeed] | None = None,
    ):
        self.seed = seed
        self._table = {k: list(v) for k, v in table.items()} if table else {}
        self._recorded: dict[str, list[Roll]] = {}
        self.draws = 0
        self._reveal: Callable[[], FairSeed] | None = fair
        self._fair: FairSeed | None = None
        self._stream: FairStream | None = None
        if replaying is not None:
            self.seed, self.draws = replaying.seed, replaying.draws
            for roll in replaying.rolls:
                self._recorded.setdefault(roll.purpose, []).append(roll)
            if replaying.fair is not None:  # more dice than were recorded: the same stream goes on
                self._fair, self._reveal = replaying.fair, None
        self._rolls: list[dict[str, Any]] = []  # made Roll models by `record` (a re-derivation needs none)

    @classmethod
    def replay(cls, record: DiceRecord) -> "Dice":
        return cls(record.seed, replaying=record)

    def roll(self, sides: int, count: int = 1, purpose: str = "roll", notation: str | None = None) -> list[int]:
        """Roll `count` dice of `sides` faces for `purpose`, from the table, the record or the generator."""
        source = "ledger"
        recorded = self._recorded.get(purpose)
        if self._table.get(purpose):
            faces = self._take_table(purpose, sides, count)
            source = "table"
        elif recorded and recorded[0].sides == sides and len(recorded[0].faces) == count:
            earlier = recorded.pop(0)
            faces, source = list(earlier.faces), earlier.source
        elif self._reveal is not None or self._fair is not None:
            stream = self._fair_stream()
            faces = stream.faces(sides, count)
            self.draws = stream.position
        else:
            faces = [face(self.seed, self.draws + i, sides) for i in range(count)]
            self.draws += count
        self._rolls.append(
            {"purpose": purpose, "sides": sides, "faces": tuple(faces), "source": source, "notation": notation}
        )
        return faces

    def _fair_stream(self) -> FairStream:
        if self._stream is None:
            if self._fair is None:
                assert self._reveal is not None
                self._fair = self._reveal()
            self._stream = FairStream.of(self._fair, self.draws)
        return self._stream

    @property
    def fair(self) -> FairSeed | None:
        """The fair seed revealed for these dice, if the ledger rolled any."""
        return self._fair

    def d(self, sides: int, purpose: str) -> int:
        return self.roll(sides, 1, purpose)[0]

    def evaluate(self, expression: Expression | str, purpose: str = "roll") -> RollResult:
        """Roll a whole expression; the faces of all its terms are drawn under one purpose."""
        if isinstance(expression, str):
            expression = parse(expression)
        table = self._table.get(purpose)
        if table is not None:
            needed = sum(term.count for term in expression.dice)
            if len(table) != needed:
                raise BadInput(f"{expression} needs {needed} faces; the table gave {len(table)}")
        faces: list[int] = []
        kept: list[bool] = []
        total = self._value(expression.root, purpose, expression.text, faces, kept)
        source = "table" if table is not None else "ledger"
        return RollResult(expression.text, total, tuple(faces), tuple(kept), source)

    def _value(self, node: Node, purpose: str, notation: str, faces: list[int], kept: list[bool]) -> int:
        """The value of `node`, rolling its dice left to right; every face goes to `faces`, kept or not."""
        if isinstance(node, Number):
            return node.value
        if isinstance(node, DiceTerm):
            rolled = self.roll(node.sides, node.count, purpose, notation=notation)
            faces += rolled
            if node.keep is None:
                kept += [True] * len(rolled)
                return sum(rolled)
            marks = node.kept(rolled)
            kept += marks
            return sum(f for f, k in zip(rolled, marks, strict=True) if k)
        if isinstance(node, Negative):
            return -self._value(node.operand, purpose, notation, faces, kept)
        assert isinstance(node, BinaryOp)
        left = self._value(node.left, purpose, notation, faces, kept)
        return OPERATORS[node.op][1](left, self._value(node.right, purpose, notation, faces, kept))

    def _take_table(self, purpose: str, sides: int, count: int) -> list[int]:
        given = self._table[purpose]
        if len(given) < count:
            raise BadInput(f"{purpose}: {count} dice needed, the table gave {len(given)}")
        faces, self._table[purpose] = given[:count], given[count:]
        for value in faces:
            within_int64(value, f"{purpose}: the table's result")
            if not 1 <= value <= sides:
                raise BadInput(f"{purpose}: a d{sides} cannot show {value}")
        return faces

    def from_table(self, purpose: str) -> bool:
        """Whether the table gave faces for `purpose` that are still to be used."""
        return bool(self._table.get(purpose))

    def deal(self, pooled: str, counts: dict[str, int], what: str) -> None:
        """Hand the table's faces given for `pooled` as one list out in order to the purposes of `counts`,
        each its number of dice: for a resolution that knows which dice it rolls only once it has rolled
        what decides them (an attack's damage dice per hit and weapon). A count that does not fit is bad
        input, saying `what` rolls them. Without faces for `pooled`, nothing changes."""
        given = self._table.pop(pooled, None)
        if given is None:
            return
        needed = sum(counts.values())
        if len(given) != needed:
            dice = "die" if needed == 1 else "dice"
            raise BadInput(f"{what} rolls {needed} {pooled} {dice}; the table gave {len(given)}")
        for purpose, count in counts.items():
            if count:
                self._table[purpose], given = given[:count], given[count:]

    def unused(self) -> dict[str, list[int]]:
        """Table results nobody asked for (the caller treats them as bad input)."""
        return {k: v for k, v in self._table.items() if v}

    def record(self) -> DiceRecord:
        rolls = tuple(Roll(**roll) for roll in self._rolls)
        return DiceRecord(seed=self.seed, draws=self.draws, rolls=rolls, fair=self._fair)
