"""Checks and experience rolls (RULINGS.md section 3, Winter Phase: Experience)."""

from ..dice import Dice
from ..errors import Refusal
from pydantic import ConfigDict, Field

from ..model import Model
from .condition import Condition, Increase
from .sheet import STATISTICS, Sheet


class Gain(Model):
    """One experience roll, the contract's `experience` item: {"what", "roll", "from", "to"}."""

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    what: str
    roll: int
    from_: int = Field(alias="from")
    to: int


def checkable(name: str) -> bool:
    """POW is the only statistic experience can raise."""
    return name not in STATISTICS or name == "pow"


def mark_check(condition: Condition, name: str) -> Condition:
    if not checkable(name):
        raise Refusal(f"{name} is a statistic other than POW: experience cannot raise it")
    return condition.with_check(name)


def experience_roll(sheet: Sheet, name: str, dice: Dice, purpose: str = "experience") -> Gain:
    """A d20 over the current value, or a 20, raises it by 1."""
    before = sheet.value(name)
    roll = dice.d(20, purpose)
    return Gain(what=name, roll=roll, from_=before, to=before + 1 if roll > before or roll == 20 else before)


def apply_gains(sheet: Sheet, condition: Condition, gains: list[Gain], cause: str, event: str) -> tuple[Sheet, Condition]:
    """Raise each gained value; a trait's opposite falls by 1 (standard Pendragon)."""
    increases = list(condition.increases)
    for gain in gains:
        if gain.to > gain.from_:
            sheet = sheet.raised(gain.what, gain.to - gain.from_)
            increases.append(Increase(what=gain.what, by=gain.to - gain.from_, cause=cause, event=event))
    return sheet, condition.model_copy(update={"increases": tuple(increases)})

