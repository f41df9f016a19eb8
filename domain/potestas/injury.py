"""Injury: DR or hardness, the Fortitude save against DC 15 + damage // 5, its degrees (docs/rulings.md, Potestas)."""

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ..dice import Dice
from ..errors import BadInput, CharacterRefused
from ..model import Model
from .condition import DISABLING, DROPPING, NONE, WOUND, Condition, StatesAfter, after_nonlethal_wound, after_wound
from .damage import damage_type, fortitude_dc
from .rulings import Rulings
from .sheet import Sheet


class InjuryInputs(Model):
    """One blow's damage. An attack's hits come out in this shape, one Injured event each."""

    damage: int = Field(description="Total damage before DR (energy riders included).")
    type: str | None = Field(None, description="Damage type; None is a plain blow that overcomes no DR.")
    also: tuple[str, ...] = Field((), description="Further qualities that may overcome DR (silver, magic, ...).")
    energy: int = Field(
        0, description="The part of `damage` that is energy dealt along with an attack: DR never removes it."
    )
    nonlethal: bool = False
    critical: bool = Field(False, description="The blow was a confirmed critical (recorded from the attack).")
    coup_de_grace: bool = Field(False, description="The save is worse than usual (coup_de_grace_save).")
    hit: int = Field(
        0, ge=0, description="Which hit of an attack (1-based); 0 for a plain injury. Names the save's dice purpose."
    )
    force: bool = Field(False, description="Injure a dead character or destroyed object anyway.")

    @model_validator(mode="before")
    @classmethod
    def _several_types(cls, data: object) -> object:
        """`--type slashing,magic`: the first is the damage type, the rest further qualities."""
        if (
            isinstance(data, dict)
            and isinstance(data.get("type"), str)
            and ("," in data["type"] or "+" in data["type"])
        ):
            named = [part for part in data["type"].replace("+", ",").split(",") if part.strip()]
            if not named:
                raise BadInput(f"no damage type in {data['type']!r}")
            data = {**data, "type": named[0], "also": (*named[1:], *data.get("also", ()))}
        return data

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str | None) -> str | None:
        return None if value is None else damage_type(value)

    @field_validator("also")
    @classmethod
    def _known_qualities(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(damage_type(v) for v in value)

    @model_validator(mode="after")
    def _amounts(self) -> "InjuryInputs":
        if self.damage < 0:
            raise BadInput(f"damage cannot be negative (got {self.damage})")
        if not 0 <= self.energy <= self.damage:
            raise BadInput(f"energy damage must be between 0 and the damage ({self.energy} of {self.damage})")
        return self

    @property
    def types(self) -> set[str]:
        return {t for t in (self.type, *self.also) if t is not None}

    @property
    def save_purpose(self) -> str:
        return f"save:{self.hit}" if self.hit else "save"


class SaveRoll(Model):
    roll: int
    bonus: int = Field(description="Fortitude (objects: + hardness + thickness, or the holder's if better).")
    penalty: int = Field(description="-1 per wound, and per nonlethal wound against nonlethal damage.")
    total: int
    margin: int = Field(description="total - DC; negative is a failure by that much.")
    success: bool = Field(description="After naturals and coup de grace.")


class InjuryOutcome(StatesAfter):
    damage: int
    reduction: int = Field(description="Points removed by DR (characters) or hardness (objects).")
    after_dr: int
    riders_negated: bool = Field(description="DR removed all damage: injury poison, stunning, injury disease negated.")
    dc: int | None
    save: SaveRoll | None
    degree: int = Field(description="0 no effect, 1 wound, 2 disabled/staggered too, 3 dying/unconscious too.")
    outcome: Literal["no_damage", "no_effect", "wound", "nonlethal_wound"]
    ignored: bool = Field(False, description="A nonlethal wound to an unconscious character has no effect.")


def injure(sheet: Sheet, condition: Condition, inputs: InjuryInputs, rulings: Rulings, dice: Dice) -> InjuryOutcome:
    if condition.finished and not inputs.force:
        raise CharacterRefused(f" is already {condition.lethal}; force it to injure anyway", "the target")
    if sheet.is_object and inputs.nonlethal:
        raise BadInput("objects take no nonlethal damage")
    if sheet.is_object:  # hardness works against all damage, energy included (seed, Objects)
        reduction = min(inputs.damage, sheet.hardness)
    else:
        reduction = min(inputs.damage - inputs.energy, sheet.reduction.against(inputs.types))
    after = inputs.damage - reduction
    negated = reduction > 0 and after == 0
    if after == 0:
        return InjuryOutcome(
            damage=inputs.damage,
            reduction=reduction,
            after_dr=0,
            riders_negated=negated,
            dc=None,
            save=None,
            degree=NONE,
            outcome="no_damage",
            states=tuple(condition.states),
        )
    dc = fortitude_dc(after)
    roll = dice.d(20, inputs.save_purpose)
    penalty = condition.wounds + (condition.nonlethal_wounds if inputs.nonlethal else 0)
    bonus = sheet.injury_save_bonus()
    total = roll + bonus - penalty
    degree = injury_degree(roll, total - dc, inputs.coup_de_grace, rulings)
    save = SaveRoll(roll=roll, bonus=bonus, penalty=penalty, total=total, margin=total - dc, success=degree == NONE)
    if degree == NONE:
        kind = "no_effect"
    else:
        kind = "nonlethal_wound" if inputs.nonlethal else "wound"
    outcome = InjuryOutcome(
        damage=inputs.damage,
        reduction=reduction,
        after_dr=after,
        riders_negated=negated,
        dc=dc,
        save=save,
        degree=degree,
        outcome=kind,
        ignored=kind == "nonlethal_wound" and _ignores_nonlethal(condition, rulings),
    )
    return outcome.model_copy(update={"states": tuple(apply_injury(sheet, condition, outcome, rulings).states)})


def _ignores_nonlethal(condition: Condition, rulings: Rulings) -> bool:
    """Unconscious: additional nonlethal wounds have no effect; dying and stable are unconscious too
    (ruling unconscious_nonlethal)."""
    if rulings.unconscious_nonlethal == "knocked_out_only":
        return condition.nonlethal == "unconscious"
    return not condition.conscious


def injury_degree(roll: int, margin: int, coup_de_grace: bool, rulings: Rulings) -> int:
    """How bad a save went: naturals (save_naturals), coup de grace (coup_de_grace_save), then the margins."""
    failed_by = -margin
    if rulings.save_naturals == "standard" and roll == 20:
        failed_by = min(failed_by, 0)
    if rulings.save_naturals == "standard" and roll == 1:
        failed_by = max(failed_by, rulings.disable_margin)
    if coup_de_grace and rulings.coup_de_grace_save == "one_degree_worse":
        failed_by = max(failed_by, rulings.disable_margin) if failed_by > 0 else 1
    if failed_by <= 0:
        return NONE
    if rulings.drop_margin is not None and failed_by >= rulings.drop_margin:
        return DROPPING
    return DISABLING if failed_by >= rulings.disable_margin else WOUND


def apply_injury(sheet: Sheet, condition: Condition, outcome: InjuryOutcome, rulings: Rulings) -> Condition:
    """The fold step of an injury: a wound or nonlethal wound moves its ladder."""
    if outcome.outcome == "wound":
        return after_wound(condition, outcome.degree, rulings.wound_while_stable, sheet.is_object)
    if outcome.outcome == "nonlethal_wound" and not outcome.ignored:
        return after_nonlethal_wound(condition, outcome.degree)
    return condition
