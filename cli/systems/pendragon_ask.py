"""`winter --ask`: on a terminal, the table gives each die in turn, asked for by character and check.

Which dice a winter needs depends on the dice before them (a productivity success adds a check), so the
character's winter is derived with the dice given so far until it needs one more: that one is asked for,
and the derivation starts again. Nothing is recorded until every die is known.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ...domain.dice import Dice
from ...domain.pendragon import WinterResolved
from ...domain.pendragon.winter import WinterInputs
from ...domain.pendragon.winter_choices import die_label


def on_terminal() -> bool:
    return sys.stdin.isatty()


class _Needed(Exception):
    def __init__(self, purpose: str, sides: int):
        super().__init__(purpose)
        self.purpose, self.sides = purpose, sides


class _GivenOnly(Dice):
    """Dice that stop at the first die the table has not given."""

    def __init__(self, table: dict[str, list[int]]):
        super().__init__(0, table=table)
        self._left = {purpose: len(faces) for purpose, faces in table.items()}

    def roll(self, sides: int, count: int = 1, purpose: str = "roll", notation: str | None = None) -> list[int]:
        if self._left.get(purpose, 0) < count:
            raise _Needed(purpose, sides)
        self._left[purpose] -= count
        return super().roll(sides, count, purpose, notation)


class TableDice:
    """The table's answers, kept by (who, die, how many before it): a retried transaction asks nobody twice."""

    def __init__(self) -> None:
        self._answers: dict[tuple[str, str, int], int] = {}

    def ask(self, who: str, label: str, sides: int, index: int = 0) -> int:
        key = (who, label, index)
        if key not in self._answers:
            self._answers[key] = click.prompt(f"{who}: {label} (d{sides})", type=click.IntRange(1, sides), err=True)
        return self._answers[key]

    def fill(
        self, name: str, sheet: Any, condition: Any, given: WinterInputs, rulings: Any, table: dict[str, list[int]]
    ) -> dict[str, list[int]]:
        """`table` completed with the dice NAME's winter draws, each asked for in the order it is drawn."""
        table = {purpose: list(faces) for purpose, faces in table.items()}
        while True:
            try:
                WinterResolved.derive(sheet, condition, given, rulings, _GivenOnly(table))
                return table
            except _Needed as need:
                faces = table.setdefault(need.purpose, [])
                label = die_label(need.purpose, given.productivity, given.worship)
                faces.append(self.ask(name, label, need.sides, len(faces)))
