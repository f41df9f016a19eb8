"""Recorded d20 checks (unopposed or opposed) and experience rolls outside winter (events: `events.py`)."""

from ..dice import Dice
from ..errors import Refusal
from ..model import Model
from .common import moved
from .condition import Condition
from .experience import Gain, apply_gains, experience_roll, mark_check
from .resolution import Result, Roll, check, oppose
from .rulings import ExperienceTiming, Rulings
from .sheet import Sheet


class CheckInputs(Model):
    what: str  # a statistic, trait, passion or skill of the sheet
    modifier: int = 0
    opponent: str | None = None  # who or what opposes, for the log
    opponent_value: int | None = None  # copied from the opponent's sheet: the event alone re-derives
    award_check: bool = False  # the table grants an experience check on a success


class CheckOutcome(Model):
    what: str
    value: int  # the sheet's value plus the modifier
    roll: Roll
    opponent_roll: Roll | None = None
    winner: str | None = None  # opposed only: "self", "opponent" or "none"
    tie: bool = False
    checked: bool = False


def check_value(sheet: Sheet, condition: Condition, inputs: CheckInputs, dice: Dice) -> CheckOutcome:
    """Dice: "check" (d20), and "opponent" (d20) when opposed."""
    value = sheet.value(inputs.what) + inputs.modifier
    own = check(dice, value)
    if inputs.opponent_value is None:
        outcome = CheckOutcome(what=inputs.what, value=value, roll=own)
    else:
        opposed = oppose(own, check(dice, inputs.opponent_value, "opponent"))
        outcome = CheckOutcome(
            what=inputs.what,
            value=value,
            roll=opposed.own,
            opponent_roll=opposed.opponent,
            winner=opposed.winner,
            tie=opposed.tie,
        )
    checked = inputs.award_check and outcome.roll.result in (Result.critical, Result.success)
    if checked:
        mark_check(condition, inputs.what)  # refuses statistics other than POW
    return outcome.model_copy(update={"checked": checked})


def after_check(condition: Condition, inputs: CheckInputs, outcome: CheckOutcome) -> Condition:
    return condition.with_check(inputs.what) if outcome.checked else condition


class ExperienceInputs(Model):
    """Experience rolls a month after an adventure (docs/rulings.md `experience_timing`)."""


class ExperienceOutcome(Model):
    experience: tuple[Gain, ...]


def roll_experience(sheet: Sheet, condition: Condition, rulings: Rulings, dice: Dice) -> ExperienceOutcome:
    """Dice: "experience" (d20), one per pending check in name order."""
    if rulings.experience_timing is not ExperienceTiming.month_after_adventure:
        raise Refusal("experience rolls wait for the Winter Phase (ruling experience_timing=winter)")
    if not condition.checks:
        raise Refusal("no checks to roll for")
    return ExperienceOutcome(experience=tuple(experience_roll(sheet, name, dice) for name in condition.checks))


def after_experience(
    sheet: Sheet, condition: Condition, outcome: ExperienceOutcome, here: str
) -> tuple[Sheet, Condition]:
    sheet, condition = apply_gains(sheet, condition, list(outcome.experience), "experience", here)
    return sheet, condition.model_copy(update={"checks": ()})


def __getattr__(name: str) -> type:
    """Event classes this module held before `events.py` (their topics in older events)."""
    return moved(__name__, name)
