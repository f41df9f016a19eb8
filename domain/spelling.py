"""Names a person may have mistyped: how many letters apart two names are, and the nearest known one.

"One or two letters" counts a letter added, dropped or changed, and two neighbours swapped, as one each
(`valorus`, `valourous` and `valorous`; `bwo` and `bow`; `loyalty_clna` and `loyalty_clan`), and leaves
most of the name as typed: a three- or four-letter name is one letter from its match (`axe` is not a slip
for `app`, nor `art` for `str`).
"""

from __future__ import annotations

from collections.abc import Iterable

NEAR = 2  # at most this many letters apart: a typing slip, not another name


def letters_apart(first: str, second: str) -> int:
    """The optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps."""
    if abs(len(first) - len(second)) > NEAR:  # never near: spare the table
        return NEAR + 1 + abs(len(first) - len(second))
    previous2: list[int] = []
    previous = list(range(len(second) + 1))
    for i, a in enumerate(first, 1):
        current = [i] + [0] * len(second)
        for j, b in enumerate(second, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b))
            if i > 1 and j > 1 and a == second[j - 2] and first[i - 2] == b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def nearest(name: str, known: Iterable[str]) -> str | None:
    """The known name at most `NEAR` letters from `name` (the closest, the first listed on a tie), or None
    when `name` is itself known or nothing is that near."""
    candidates = list(dict.fromkeys(known))
    if name in candidates:
        return None
    best: tuple[int, str] | None = None
    for candidate in candidates:
        apart = letters_apart(name, candidate)
        if apart <= NEAR and 2 * apart < len(name) and (best is None or apart < best[0]):
            best = (apart, candidate)
    return best[1] if best else None
