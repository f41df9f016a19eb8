"""d20 resolution, unopposed and opposed (docs/rulings.md, PenDragon Pass, Resolution; standard Pendragon)."""

from enum import StrEnum

from ..dice import Dice
from ..model import Model


class Result(StrEnum):
    critical = "critical"
    success = "success"
    partial_success = "partial_success"  # only the loser of two successes in an opposed roll
    failure = "failure"
    fumble = "fumble"

    @property
    def succeeded(self) -> bool:
        return self in (Result.critical, Result.success, Result.partial_success)


class Roll(Model):
    """One d20 against a value: `total` is the roll plus any excess of the value over 20."""

    value: int
    roll: int
    total: int
    result: Result


def resolve(value: int, roll: int) -> Roll:
    """Equal is a critical, under a success, 20 a fumble unless the value is 20+, over a failure.
    A value over 20 adds its excess to the roll and any total of 20+ is a critical."""
    if value > 20:
        total = roll + value - 20
        return Roll(value=value, roll=roll, total=total, result=Result.critical if total >= 20 else Result.success)
    if roll == value:
        result = Result.critical
    elif roll == 20:
        result = Result.fumble
    elif roll < value:
        result = Result.success
    else:
        result = Result.failure
    return Roll(value=value, roll=roll, total=roll, result=result)


def check(dice: Dice, value: int, purpose: str = "check") -> Roll:
    return resolve(value, dice.d(20, purpose))


class Opposed(Model):
    """Both sides' rolls; `winner` is "self", "opponent" or "none" (a tie or two failures)."""

    own: Roll
    opponent: Roll
    winner: str
    tie: bool


def oppose(own: Roll, opponent: Roll) -> Opposed:
    """A critical beats a success; two successes: the higher total wins and the loser has a partial
    success, equal totals tie; two criticals tie; a success beats a failure; two failures: nobody wins."""
    mine, theirs = own.result.succeeded, opponent.result.succeeded
    if not (mine or theirs):
        return Opposed(own=own, opponent=opponent, winner="none", tie=False)
    if mine != theirs:
        return Opposed(own=own, opponent=opponent, winner="self" if mine else "opponent", tie=False)
    own_crit, their_crit = own.result is Result.critical, opponent.result is Result.critical
    if own_crit != their_crit:
        return Opposed(own=own, opponent=opponent, winner="self" if own_crit else "opponent", tie=False)
    if own_crit or own.total == opponent.total:
        return Opposed(own=own, opponent=opponent, winner="none", tie=True)
    if own.total > opponent.total:
        return Opposed(own=own, opponent=_partial(opponent), winner="self", tie=False)
    return Opposed(own=_partial(own), opponent=opponent, winner="opponent", tie=False)


def _partial(roll: Roll) -> Roll:
    if roll.result is Result.success:
        return roll.model_copy(update={"result": Result.partial_success})
    return roll
