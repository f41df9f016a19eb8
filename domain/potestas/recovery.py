"""Dying saves, exertion and natural healing (docs/rulings.md, Potestas, Condition ladder and Natural healing)."""

from typing import Literal

from pydantic import Field, model_validator

from ..dice import Dice
from ..errors import BadInput, CharacterRefused, Refusal
from ..model import Model
from .condition import (
    Condition,
    StatesAfter,
    after_exertion,
    heal_nonlethal_wound,
    heal_wound,
    needs_lethal_healing,
    needs_nonlethal_healing,
)
from .rulings import Rulings
from .sheet import Sheet


class DyingSaveInputs(Model):
    """A dying character's save for this turn."""

    rounds: int = Field(
        0, ge=0, description="Rounds the character lay unconscious before this one that no event shows (dying_dc)."
    )


class DyingSaveOutcome(Model):
    dc: int = Field(description="10 + rounds unconscious so far, or + dying saves made (dying_dc).")
    roll: int
    bonus: int
    penalty: int = Field(description="-1 per wound: wound penalties apply.")
    total: int
    margin: int
    success: bool
    result: Literal["stable", "dying", "dead"]


def dying_dc(condition: Condition, inputs: DyingSaveInputs, rulings: Rulings) -> int:
    """Seed, Dying: "a DC of 10 (+1 for each round you have been unconscious)" (ruling dying_dc)."""
    if rulings.dying_dc == "10_plus_rounds":
        return 10 + condition.rounds_unconscious + inputs.rounds
    return 10 + (condition.dying_saves if rulings.dying_dc == "10_plus_prior" else 0)


def dying_save(
    sheet: Sheet, condition: Condition, inputs: DyingSaveInputs, rulings: Rulings, dice: Dice
) -> DyingSaveOutcome:
    if condition.lethal != "dying":
        raise Refusal(f"only a dying character makes a dying save (this one is {condition.lethal})")
    dc = dying_dc(condition, inputs, rulings)
    roll = dice.d(20, "save")
    total = roll + sheet.fort - condition.wounds
    margin = total - dc
    success = margin >= 0
    if rulings.dying_save_naturals == "standard" and roll in (1, 20):
        success = roll == 20
    result: Literal["stable", "dying", "dead"] = "stable" if success else "dying"
    if not success and rulings.dying_failure == "die_by_margin" and -margin >= rulings.dying_death_margin:
        result = "dead"
    return DyingSaveOutcome(
        dc=dc,
        roll=roll,
        bonus=sheet.fort,
        penalty=condition.wounds,
        total=total,
        margin=margin,
        success=success,
        result=result,
    )


def apply_dying_save(condition: Condition, inputs: DyingSaveInputs, outcome: DyingSaveOutcome) -> Condition:
    """The save took this round; the rounds declared before it count too. Stable is still unconscious."""
    counted = condition.model_copy(update={"rounds_unconscious": condition.rounds_unconscious + inputs.rounds + 1})
    if outcome.result == "dying":
        return counted.model_copy(update={"dying_saves": condition.dying_saves + 1})
    return counted.with_lethal(outcome.result)


class ExertionInputs(Model):
    action: str = Field("strenuous action", description="What was done: a standard action, moving over half speed, ...")


class ExertionOutcome(Model):
    worsened: tuple[str, ...] = Field(
        description="States entered: dying (from disabled), unconscious (from staggered)."
    )


def exert(sheet: Sheet, condition: Condition) -> ExertionOutcome:
    if sheet.is_object:
        raise Refusal("an object cannot exert itself")
    if not condition.conscious:
        raise Refusal(f"an unconscious character cannot exert itself ({', '.join(condition.states)})")
    before = set(condition.states)
    return ExertionOutcome(worsened=tuple(s for s in after_exertion(condition).states if s not in before))


class RestInputs(Model):
    hours: int = 0
    minutes: int = 0
    interrupted: bool = Field(False, description="A significant interruption: the rest heals nothing.")
    force: bool = Field(
        False, description="Rest the dead, or the dying who is not stable, anyway (recorded; see `rest`)."
    )

    @model_validator(mode="after")
    def _not_negative(self) -> "RestInputs":
        if self.hours < 0 or self.minutes < 0:
            raise BadInput("a rest cannot last a negative time")
        return self


class RestOutcome(StatesAfter):
    minutes: int = Field(description="Length of the rest in minutes.")
    wounds_healed: int
    nonlethal_healed: int


def check_rest(sheet: Sheet, condition: Condition, force: bool) -> None:
    """A rest the table asks for now: unless forced, the dead are refused (as in every system), and so is the
    dying who is not stable: the seed's dying character "must make a Fortitude save" each round until stable
    (`dying-save`), so no rest passes before that. Asked of a new rest only: a recorded one re-derived (a
    replay, a correction) heals as `rest` says, whatever the state it meets."""
    if force or sheet.is_object:
        return
    if condition.finished:
        raise CharacterRefused(f" is {condition.lethal}: a rest heals nothing (--force records it anyway)")
    if condition.lethal == "dying":
        raise CharacterRefused(
            " is dying: a dying character saves each round until stable (dying-save), and rests only once "
            "stable (--force records the rest anyway)"
        )


def rest(sheet: Sheet, condition: Condition, inputs: RestInputs) -> RestOutcome:
    """3 * (H // 24) + (H % 24) // 8 wounds and 3 * (m // 60) + (m % 60) // 20 nonlethal wounds, each step
    limited by what there is to heal; interrupted rests, the dead and objects heal nothing (`check_rest` says
    which rests the table may ask for)."""
    minutes = inputs.hours * 60 + inputs.minutes
    if inputs.interrupted or condition.finished or sheet.is_object:
        return RestOutcome(minutes=minutes, wounds_healed=0, nonlethal_healed=0, states=tuple(condition.states))
    hours = minutes // 60
    lethal = 3 * (hours // 24) + (hours % 24) // 8
    nonlethal = 3 * (minutes // 60) + (minutes % 60) // 20
    healed, healed_nonlethal = 0, 0
    while healed < lethal and needs_lethal_healing(condition):
        condition, healed = heal_wound(condition), healed + 1
    while healed_nonlethal < nonlethal and needs_nonlethal_healing(condition):
        condition, healed_nonlethal = heal_nonlethal_wound(condition), healed_nonlethal + 1
    done = RestOutcome(minutes=minutes, wounds_healed=healed, nonlethal_healed=healed_nonlethal)
    return done.model_copy(update={"states": tuple(condition.states)})


def apply_rest(condition: Condition, outcome: RestOutcome) -> Condition:
    """Healing in the order `rest` decided it; a rest spent unconscious counts 10 rounds a minute
    (the count ends if the healing wakes the character)."""
    condition = condition.after_rounds(10 * outcome.minutes)
    for _ in range(outcome.wounds_healed):
        condition = heal_wound(condition)
    for _ in range(outcome.nonlethal_healed):
        condition = heal_nonlethal_wound(condition)
    return condition
