"""Feats (seed: Feats): roll under half a combat skill or physical statistic, never Riding."""

from math import ceil

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput, Refusal
from ..model import Model
from .common import moved
from .resolution import Result
from .rulings import FeatThreshold, Rulings
from .sheet import PHYSICAL_STATISTICS, Sheet, category
from .skills import is_combat_skill


def succeeds(roll: int, value: int, threshold: FeatThreshold) -> bool:
    """docs/rulings.md `feat_threshold`."""
    if threshold is FeatThreshold.half_floor_inclusive:
        return roll <= value // 2
    if threshold is FeatThreshold.half_floor_exclusive:
        return roll < value // 2
    return roll <= ceil(value / 2)


class FeatInputs(Model):
    what: str  # a combat skill or physical statistic
    description: str = Field(min_length=1)  # the seed: always name and describe the Feat


def described(description: str) -> str:
    """A Feat's description, which says something (the seed: "Always name and describe the Feat"): one of
    blanks alone is bad input. Feats recorded before this check are read and re-derived as they were."""
    if not description.strip():
        raise BadInput("describe the Feat: the rules always name and describe it, and blanks describe nothing")
    return description


class FeatOutcome(Model):
    what: str
    value: int
    roll: int
    result: Result  # success counts as a critical, failure as a fumble
    knockdown: bool  # a failed Feat knocks the character down


def attempt_feat(sheet: Sheet, inputs: FeatInputs, rulings: Rulings, dice: Dice) -> FeatOutcome:
    """Dice: "feat" (d20)."""
    value = sheet.value(inputs.what)
    if inputs.what == "riding":
        raise Refusal("no Feat can be attempted with Riding")
    if not is_combat_skill(inputs.what) and inputs.what not in PHYSICAL_STATISTICS:
        kind = category(inputs.what)
        raise Refusal(f"a Feat needs a combat skill or physical statistic, not the {kind} {inputs.what}")
    roll = dice.d(20, "feat")
    done = succeeds(roll, value, rulings.feat_threshold)
    return FeatOutcome(
        what=inputs.what, value=value, roll=roll, result=Result.critical if done else Result.fumble, knockdown=not done
    )


def __getattr__(name: str) -> type:
    """Event classes this module held before `events.py` (their topics in older events)."""
    return moved(__name__, name)
