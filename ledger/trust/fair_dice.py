"""`verify`'s check of the ledger's fair dice (docs/fair-dice.md): every fair roll's faces derived again from
its revealed seed and its device's seed; every revealed seed hashed back to the one before it in its chain
(the first to its commitment's head); any seed skipped or revealed twice named.

A share of `verify` (ledger/trust/verify.py) feeds it the events it reads (`DiceCheck.feed`: the faces,
event by event) and reports what the chains need compactly; `settle` puts the shares' reports in log
order and checks the chains, where the seeds of one chain may come from every share."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ...domain.commitments import DiceCommitted
from ...domain.dice import DiceRecord
from ...domain.fair_dice import faces_agree, hashes_to

if TYPE_CHECKING:
    from ...domain.events import DomainEvent

DEVICE, COPIED = 1, 2  # a reveal's flags: it came with a device's seed; a replay's fork copied it (`origin`)


class DiceCheck:
    """What one share of `verify` notes of the fair dice, in bounded memory: 49 bytes a fair roll."""

    def __init__(self) -> None:
        self.commitments: list[tuple[int, str, int]] = []  # (position, head, length)
        self.positions, self.indices = array("q"), array("q")
        self.seeds, self.flags = bytearray(), bytearray()

    def feed(self, position: int, event: DomainEvent) -> str | None:
        """Note the event's commitment or fair seed; a fair roll whose faces its seeds do not give is a problem."""
        if isinstance(event, DiceCommitted):
            self.commitments.append((position, event.head, event.length))
            return None
        dice = getattr(event, "dice", None)
        fair = dice.fair if isinstance(dice, DiceRecord) else None
        if fair is None:
            return None
        assert isinstance(dice, DiceRecord)
        self.positions.append(position)
        self.indices.append(fair.index)
        self.seeds += bytes.fromhex(fair.seed)
        self.flags.append((DEVICE if fair.device_seed else 0) | (COPIED if getattr(event, "origin", None) else 0))
        ledger = [(roll.sides, roll.faces) for roll in dice.rolls if roll.source == "ledger"]
        if not faces_agree(fair, ledger, dice.draws):
            with_device = " and its device's seed" if fair.device_seed else ""
            return f"fair dice: the faces recorded are not those seed {fair.index}{with_device} gives (changed since?)"
        return None

    def report(self) -> dict[str, Any]:
        return {
            "commitments": self.commitments,
            "positions": self.positions.tobytes(),
            "indices": self.indices.tobytes(),
            "seeds": bytes(self.seeds),
            "flags": bytes(self.flags),
        }


class _Chain:
    def __init__(self, position: int, head: str, length: int, place: Callable[[int], str]):
        self.position, self.head, self.length = position, bytes.fromhex(head), length
        self.place, self.at = place, place(position)
        self.revealed: dict[int, tuple[int, bytes]] = {}  # index -> (position, seed), as first revealed


def settle(
    reports: Iterable[dict[str, Any]], place: Callable[[int], str] = "#{}".format
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The shares' reports as one: (`verify --json`'s `dice`: fair rolls, how many with a device's seed,
    the indices skipped; the problems, each at a log position). `place` names a position in a sentence
    (an import's are its file's lines)."""
    commitments: list[tuple[int, str, int]] = []
    positions, indices, seeds, flags = array("q"), array("q"), bytearray(), bytearray()
    for report in reports:
        commitments += report["commitments"]
        positions.frombytes(report["positions"])
        indices.frombytes(report["indices"])
        seeds += report["seeds"]
        flags += report["flags"]
    commitments.sort()
    chains = [_Chain(*commitment, place) for commitment in commitments]
    problems: list[dict[str, Any]] = []
    at = -1
    for n in sorted(range(len(positions)), key=positions.__getitem__):
        position, index, seed = positions[n], indices[n], bytes(seeds[32 * n : 32 * n + 32])
        while at + 1 < len(chains) and chains[at + 1].position < position:
            at += 1
        if flags[n] & COPIED:  # its seed was revealed, and its chain checked, in the campaign it was forked from
            continue
        if at < 0:
            problems.append(
                {
                    "position": position,
                    "problem": f"fair dice: reveals seed {index}, but no commitment to dice comes before it",
                }
            )
            continue
        chain = chains[at]
        if index > chain.length:
            problems.append(
                {
                    "position": position,
                    "problem": f"fair dice: reveals seed {index:,} of the chain"
                    f" committed at {chain.at}, which holds {chain.length:,}",
                }
            )
        elif index in chain.revealed:
            first = chain.revealed[index][0]
            problems.append(
                {
                    "position": position,
                    "problem": f"fair dice: seed {index} of the chain committed at"
                    f" {chain.at} is revealed twice (first at {place(first)}): one seed, two rolls",
                }
            )
        else:
            chain.revealed[index] = (position, seed)
    skipped: list[int] = []
    for chain in chains:
        problems += _links(chain, skipped)
    summary = {"fair": len(positions), "device_seeded": sum(1 for f in flags if f & DEVICE), "skipped": skipped}
    return summary, problems


def _links(chain: _Chain, skipped: list[int]) -> list[dict[str, Any]]:
    """Each revealed seed against the nearest good one revealed before it (else the head), and the gaps named."""
    found = []
    before = 0  # the index revealed last
    anchor, earlier, where = 0, chain.head, f"the head committed at {chain.at}"  # the last seed that held
    for index in sorted(chain.revealed):
        position, seed = chain.revealed[index]
        if index > before + 1:
            gap = list(range(before + 1, index))
            skipped += gap
            named = f"seed {gap[0]}" if len(gap) == 1 else f"seeds {gap[0]} to {gap[-1]}"
            found.append(
                {
                    "position": position,
                    "problem": f"fair dice: {named} of the chain committed at {chain.at} never revealed (a"
                    f" roll made and not recorded, or removed); this roll reveals seed {index}",
                }
            )
        if hashes_to(seed, earlier, index - anchor):
            anchor, earlier, where = index, seed, f"seed {index} ({chain.place(position)})"
        else:
            found.append(
                {
                    "position": position,
                    "problem": f"fair dice: seed {index} does not hash to {where}: not a seed the ledger committed to",
                }
            )
        before = index
    return found
