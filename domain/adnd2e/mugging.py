"""Mugging: the victim's save vs petrification after a hit (seed, Mugging)."""

from __future__ import annotations

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput
from ..model import Model
from .attacks import check_muggable
from .condition import Condition
from .rulings import Rulings
from .sheet import Sheet

MUG_KNOCKOUT_ROUNDS = "2d8"


def mug_save(base: int, mugger_level: int, victim_level: int) -> int:
    """The number the victim needs: raised by `mugger level - victim level or HD` (t9 vs 4 HD: 12 -> 17)."""
    return base + mugger_level - victim_level


class MugInputs(Model):
    save_number: int = Field(description="The victim's base save vs petrification (the table's save charts).")
    mugger: str | None = None
    mugger_level: int = Field(0, ge=0)
    mugger_height: int | None = Field(None, description="Inches; the victim's height defaults to it.")


class MugOutcome(Model):
    save_number: int  # after the level difference
    save_roll: int
    saved: bool
    knockout_rounds: int | None = None


def mug(sheet: Sheet, condition: Condition, inputs: MugInputs, rulings: Rulings, dice: Dice) -> MugOutcome:
    """Save d20 at or over the number; failure knocks the victim out for 2d8 rounds."""
    if not 1 <= inputs.save_number <= 20:
        raise BadInput(f"a base save number is 1 to 20, not {inputs.save_number}")
    check_muggable(sheet, inputs.mugger_height)
    number = mug_save(inputs.save_number, inputs.mugger_level, sheet.rank)
    roll = dice.d(20, "save")
    saved = roll >= number
    rounds = None if saved else dice.evaluate(MUG_KNOCKOUT_ROUNDS, "knockout_rounds").total
    return MugOutcome(save_number=number, save_roll=roll, saved=saved, knockout_rounds=rounds)
