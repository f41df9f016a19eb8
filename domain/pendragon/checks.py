"""Recorded d20 checks (unopposed or opposed) and experience rolls outside winter."""

from ..dice import Dice
from ..errors import Refusal
from ..events import Resolution
from ..model import Model
from .common import event_id
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


class Checked(Resolution):
    """Dice: "check" (d20), and "opponent" (d20) when opposed."""

    inputs: CheckInputs
    outcome: CheckOutcome

    @classmethod
    def derive(cls, sheet: Sheet, condition: Condition, inputs: CheckInputs, rulings: Rulings, dice: Dice) -> CheckOutcome:
        value = sheet.value(inputs.what) + inputs.modifier
        own = check(dice, value)
        if inputs.opponent_value is None:
            outcome = CheckOutcome(what=inputs.what, value=value, roll=own)
        else:
            opposed = oppose(own, check(dice, inputs.opponent_value, "opponent"))
            outcome = CheckOutcome(what=inputs.what, value=value, roll=opposed.own, opponent_roll=opposed.opponent,
                                   winner=opposed.winner, tie=opposed.tie)
        checked = inputs.award_check and outcome.roll.result in (Result.critical, Result.success)
        if checked:
            mark_check(condition, inputs.what)  # refuses statistics other than POW
        return outcome.model_copy(update={"checked": checked})

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, condition.with_check(self.inputs.what) if self.outcome.checked else condition


class ExperienceInputs(Model):
    """Experience rolls a month after an adventure (RULINGS.md `experience_timing`)."""


class ExperienceOutcome(Model):
    experience: tuple[Gain, ...]


class ExperienceRolled(Resolution):
    """Dice: "experience" (d20), one per pending check in name order."""

    inputs: ExperienceInputs
    outcome: ExperienceOutcome

    @classmethod
    def derive(cls, sheet: Sheet, condition: Condition, inputs: ExperienceInputs, rulings: Rulings, dice: Dice) -> ExperienceOutcome:
        if rulings.experience_timing is not ExperienceTiming.month_after_adventure:
            raise Refusal("experience rolls wait for the Winter Phase (ruling experience_timing=winter)")
        if not condition.checks:
            raise Refusal("no checks to roll for")
        return ExperienceOutcome(experience=tuple(experience_roll(sheet, name, dice) for name in condition.checks))

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        sheet, condition = apply_gains(sheet, condition, list(self.outcome.experience), "experience", event_id(self))
        return sheet, condition.model_copy(update={"checks": ()})
