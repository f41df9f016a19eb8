"""Dice notation and a recordable, reproducible dice source.

Notation (CONTRACT.md "Dice"): terms joined by + or -, each a constant or `NdX` with optional
keep/drop (`4d6kh3`, `2d20kl1`, `4d6dl1`); `dX` is `1dX`, `d%` is `d100`. 1-1,000 dice and
1-1,000 faces a term. Parsed by hand into a small tree, never evaluated as code (after avrae/d20).

The generator is counter based: face *i* of an event is a pure function of (seed, i), so the
event's seed plus its recorded rolls reproduce every face, and a replay that needs more dice
than were recorded keeps drawing from the same sequence.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from .errors import BadInput
from .model import Model

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_TERMS = 100
EXAMPLES = "expected e.g. 2d6+1, d20, d%, 4d6kh3 (1-1000 dice of 1-1000 faces a term)"

_TERM = re.compile(r"(?:(\d+)?d(%|\d+)(?:(kh|kl|dh|dl)(\d+))?|(\d+))", re.ASCII)


@dataclass(frozen=True)
class DiceTerm:
    count: int
    sides: int
    keep: str | None = None  # kh, kl, dh or dl
    keep_n: int = 0
    sign: int = 1

    def __str__(self) -> str:
        suffix = f"{self.keep}{self.keep_n}" if self.keep else ""
        return f"{self.count}d{self.sides}{suffix}"

    def kept(self, faces: list[int]) -> list[bool]:
        """Which of the faces (in rolled order) count toward the total."""
        order = sorted(range(len(faces)), key=lambda i: (faces[i], i), reverse=self.keep in ("kh", "dl"))
        n = self.keep_n if self.keep in ("kh", "kl") else len(faces) - self.keep_n
        chosen = set(order[: max(n, 0)])
        return [i in chosen for i in range(len(faces))]


@dataclass(frozen=True)
class Constant:
    value: int
    sign: int = 1


@dataclass(frozen=True)
class Expression:
    text: str
    terms: tuple[DiceTerm | Constant, ...]

    def __str__(self) -> str:
        return self.text


def parse(notation: str) -> Expression:
    """Parse dice notation; anything outside the grammar is `BadInput`."""
    if len(notation) <= 200:  # an Expression is immutable: parse each notation once (re-derivation rolls many)
        return _parse_cached(notation)
    return _parse(notation)


@functools.lru_cache(maxsize=1024)
def _parse_cached(notation: str) -> Expression:
    return _parse(notation)


def _parse(notation: str) -> Expression:
    text = notation.replace(" ", "").lower()
    if not text or len(text) > 200:
        raise BadInput(f"bad dice notation {notation!r}: {EXAMPLES}")
    terms: list[DiceTerm | Constant] = []
    pos, sign = 0, 1
    if text[0] in "+-":
        sign, pos = (-1 if text[0] == "-" else 1), 1
    while True:
        match = _TERM.match(text, pos)
        if not match:
            raise BadInput(f"bad dice notation {notation!r} (stuck at {text[pos:] or 'the end'!r}): {EXAMPLES}")
        count, sides, keep, keep_n, constant = match.groups()
        if constant is not None:
            terms.append(Constant(int(constant), sign))
        else:
            term = DiceTerm(int(count or 1), 100 if sides == "%" else int(sides), keep, int(keep_n or 0), sign)
            _check(term, notation)
            terms.append(term)
        pos = match.end()
        if pos == len(text):
            break
        if text[pos] not in "+-":
            raise BadInput(f"bad dice notation {notation!r} (stuck at {text[pos:]!r}): {EXAMPLES}")
        sign, pos = (-1 if text[pos] == "-" else 1), pos + 1
    if len(terms) > MAX_TERMS:
        raise BadInput(f"bad dice notation {notation!r}: at most {MAX_TERMS} terms")
    return Expression(notation.strip(), tuple(terms))


def _check(term: DiceTerm, notation: str) -> None:
    if not 1 <= term.count <= MAX_DICE:
        raise BadInput(f"bad dice notation {notation!r}: 1 to {MAX_DICE} dice a term")
    if not 1 <= term.sides <= MAX_SIDES:
        raise BadInput(f"bad dice notation {notation!r}: 1 to {MAX_SIDES} faces a die")
    if term.keep and not 0 <= term.keep_n <= term.count:
        raise BadInput(f"bad dice notation {notation!r}: cannot keep or drop {term.keep_n} of {term.count} dice")


class Roll(Model):
    """One named draw of dice within an event: what was rolled, for what, and by whom."""

    purpose: str
    sides: int
    faces: tuple[int, ...]
    source: Literal["ledger", "table"] = "ledger"
    notation: str | None = None


class DiceRecord(Model):
    """Everything needed to reproduce an event's dice: the seed, how many faces it drew, the rolls."""

    seed: int = 0
    draws: int = 0
    rolls: tuple[Roll, ...] = ()

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
    handed back in order, purpose by purpose, so a re-derivation sees the same dice.
    """

    def __init__(self, seed: int, table: dict[str, list[int]] | None = None, replaying: DiceRecord | None = None):
        self.seed = seed
        self._table = {k: list(v) for k, v in table.items()} if table else {}
        self._recorded: dict[str, list[Roll]] = {}
        self.draws = 0
        if replaying is not None:
            self.seed, self.draws = replaying.seed, replaying.draws
            for roll in replaying.rolls:
                self._recorded.setdefault(roll.purpose, []).append(roll)
        self._rolls: list[dict[str, Any]] = []  # made Roll models by `record` (a re-derivation needs none)

    @classmethod
    def replay(cls, record: DiceRecord) -> Dice:
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
        else:
            faces = [face(self.seed, self.draws + i, sides) for i in range(count)]
            self.draws += count
        self._rolls.append({"purpose": purpose, "sides": sides, "faces": tuple(faces), "source": source,
                            "notation": notation})
        return faces

    def d(self, sides: int, purpose: str) -> int:
        return self.roll(sides, 1, purpose)[0]

    def evaluate(self, expression: Expression | str, purpose: str = "roll") -> RollResult:
        """Roll a whole expression; the faces of all its terms are drawn under one purpose."""
        if isinstance(expression, str):
            expression = parse(expression)
        table = self._table.get(purpose)
        if table is not None:
            needed = sum(t.count for t in expression.terms if isinstance(t, DiceTerm))
            if len(table) != needed:
                raise BadInput(f"{expression} needs {needed} faces; the table gave {len(table)}")
        total, faces, kept = 0, [], []
        for term in expression.terms:
            if isinstance(term, Constant):
                total += term.sign * term.value
                continue
            rolled = self.roll(term.sides, term.count, purpose, notation=expression.text)
            faces += rolled
            if term.keep is None:
                total += term.sign * sum(rolled)
                kept += [True] * len(rolled)
                continue
            marks = term.kept(rolled)
            total += term.sign * sum(f for f, k in zip(rolled, marks) if k)
            kept += marks
        source = "table" if table is not None else "ledger"
        return RollResult(expression.text, total, tuple(faces), tuple(kept), source)

    def _take_table(self, purpose: str, sides: int, count: int) -> list[int]:
        given = self._table[purpose]
        if len(given) < count:
            raise BadInput(f"{purpose}: {count} dice needed, the table gave {len(given)}")
        faces, self._table[purpose] = given[:count], given[count:]
        for value in faces:
            if not 1 <= value <= sides:
                raise BadInput(f"{purpose}: a d{sides} cannot show {value}")
        return faces

    def unused(self) -> dict[str, list[int]]:
        """Table results nobody asked for (the caller treats them as bad input)."""
        return {k: v for k, v in self._table.items() if v}

    def record(self) -> DiceRecord:
        return DiceRecord(seed=self.seed, draws=self.draws, rolls=tuple(Roll(**roll) for roll in self._rolls))
