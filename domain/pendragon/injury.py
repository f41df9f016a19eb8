"""Wounds, First Aid and magical healing (docs/rulings.md, PenDragon Pass, Injury; seed: Injury and Health)."""

from datetime import datetime, timedelta
from typing import Any

from pydantic import Field

from ..dice import Dice
from ..errors import CharacterRefused, NotFound, Refusal
from ..model import Model
from .common import moved
from .condition import Condition, Wound, hp, is_unconscious_at
from .resolution import Roll, check
from .rulings import Rulings
from .sheet import Sheet

FIRST_AID_WINDOW = timedelta(days=1)


def _unnumbered(wound: int | None) -> bool:
    return wound is None


class InjureInputs(Model):
    damage: int = Field(ge=0)
    wound: int | None = Field(
        None,
        exclude_if=_unnumbered,
        description="The wound's number, given when it was recorded: a correction of an earlier wound leaves it "
        "alone (none in wounds recorded before, numbered one more than the highest).",
    )
    at: datetime | None = None  # the event's timestamp, for the First Aid and healing windows
    force: bool = False  # wound a dead character anyway
    attacker: str = ""  # who dealt the blow, for the log


def refuse_the_dead(sheet: Sheet, condition: Condition, force: bool, what: str) -> None:
    """Injury, First Aid, magical healing and rest on the dead are refused unless forced."""
    if hp(sheet, condition) <= 0 and not force:
        raise CharacterRefused(f" is dead ({hp(sheet, condition)} hit points): force it to {what} anyway")


class InjureOutcome(Model):
    wound: int
    damage: int
    major: bool  # damage >= CON: needs Chirurgery
    knockdown: bool  # damage > SIZ
    hp: int
    unconscious: bool
    dead: bool


def injure(sheet: Sheet, condition: Condition, inputs: InjureInputs, rulings: Rulings) -> InjureOutcome:
    refuse_the_dead(sheet, condition, inputs.force, "wound them")
    after = hp(sheet, condition) - inputs.damage
    return InjureOutcome(
        wound=condition.next_wound(inputs.wound),
        damage=inputs.damage,
        major=inputs.damage >= sheet.con,
        knockdown=inputs.damage > sheet.siz,
        hp=after,
        unconscious=after > 0 and is_unconscious_at(after, sheet.max_hp, rulings.unconscious_threshold),
        dead=after <= 0,
    )


def after_injury(condition: Condition, inputs: InjureInputs, out: InjureOutcome) -> Condition:
    wound = Wound(
        id=out.wound, received=out.damage, amount=out.damage, major=out.major, needs_chirurgery=out.major, at=inputs.at
    )
    fell_unconscious = out.unconscious and not condition.unconscious
    return condition.model_copy(
        update={
            "wounds": (*condition.wounds, wound),
            "knocked_down": out.knockdown,
            "unconscious": out.unconscious,
            # standard Pendragon: an unconscious character needs Chirurgery
            "chirurgery_for_unconsciousness": condition.chirurgery_for_unconsciousness or fell_unconscious,
        }
    )


def _open_wound(condition: Condition, wound_id: int) -> Wound:
    wound = condition.wound(wound_id)
    if wound is None:
        raise NotFound(f"no wound {wound_id}")
    if wound.amount == 0:
        raise Refusal(f"wound {wound_id} is already healed")
    return wound


def _too_old(wound: Wound, at: datetime | None, window: timedelta | None) -> bool:
    return window is not None and wound.at is not None and at is not None and at - wound.at > window


class FirstAidInputs(Model):
    wound: int
    at: datetime | None = None
    skill: int | None = None  # the healer's First Aid, rolled when given
    healer: str = ""  # who gave it, for the log
    force: bool = False  # treat a dead character anyway


class HealOutcome(Model):
    wound: int
    roll: Roll | None = None
    healed: int
    hp: int
    unconscious: bool
    chirurgery_cleared: bool = False  # the wound's own need (major wounds)


def first_aid(sheet: Sheet, condition: Condition, inputs: FirstAidInputs, dice: Dice) -> HealOutcome:
    """Once per wound, on wounds up to a day old; heals 1d3. Dice: "check" (d20, the healer's
    First Aid, when given) and "heal" (d3)."""
    refuse_the_dead(sheet, condition, inputs.force, "give First Aid")
    wound = _open_wound(condition, inputs.wound)
    if wound.first_aid_done:
        raise Refusal(f"wound {wound.id} has already had First Aid")
    if _too_old(wound, inputs.at, FIRST_AID_WINDOW):
        raise Refusal(f"wound {wound.id} is more than a day old: First Aid cannot treat it")
    roll = check(dice, inputs.skill) if inputs.skill is not None else None
    healed = min(dice.d(3, "heal"), wound.amount) if roll is None or roll.result.succeeded else 0
    # First Aid does not wake an unconscious character: that takes Chirurgery or magic
    return HealOutcome(
        wound=wound.id, roll=roll, healed=healed, hp=hp(sheet, condition) + healed, unconscious=condition.unconscious
    )


def after_first_aid(condition: Condition, outcome: HealOutcome) -> Condition:
    wound = condition.wound(outcome.wound)
    assert wound is not None  # derive found it
    return condition.with_wound(
        wound.model_copy(update={"amount": wound.amount - outcome.healed, "first_aid_done": True})
    )


class MagicHealInputs(Model):
    wound: int
    points: int = Field(ge=0)  # what the spell heals
    at: datetime | None = None
    window_hours: int | None = 1  # most spells heal only wounds from the last hour; None: no limit
    heals_all: bool = False
    regrows_limbs: bool = False
    force: bool = False  # heal a dead character anyway


def magic_heal(sheet: Sheet, condition: Condition, inputs: MagicHealInputs, rulings: Rulings) -> HealOutcome:
    """Once per wound. Waking an unconscious character ends its need for Chirurgery; a major wound's
    need ends only with a spell that heals all damage or regrows limbs. The dead stay dead unless forced."""
    refuse_the_dead(sheet, condition, inputs.force, "heal them")
    wound = _open_wound(condition, inputs.wound)
    if wound.magic_healed:
        raise Refusal(f"wound {wound.id} has already been healed by magic")
    window = timedelta(hours=inputs.window_hours) if inputs.window_hours is not None else None
    if _too_old(wound, inputs.at, window):
        raise Refusal(f"wound {wound.id} is older than {inputs.window_hours} hour(s): this spell cannot heal it")
    healed = wound.amount if inputs.heals_all else min(inputs.points, wound.amount)
    after = hp(sheet, condition) + healed
    unconscious = condition.unconscious and is_unconscious_at(after, sheet.max_hp, rulings.unconscious_threshold)
    return HealOutcome(
        wound=wound.id,
        healed=healed,
        hp=after,
        unconscious=unconscious,
        chirurgery_cleared=wound.needs_chirurgery and (inputs.heals_all or inputs.regrows_limbs),
    )


def after_magic_heal(condition: Condition, out: HealOutcome) -> Condition:
    wound = condition.wound(out.wound)
    assert wound is not None  # derive found it
    healed = wound.model_copy(
        update={
            "amount": wound.amount - out.healed,
            "magic_healed": True,
            "needs_chirurgery": wound.needs_chirurgery and not out.chirurgery_cleared,
        }
    )
    woke = condition.unconscious and not out.unconscious
    return condition.with_wound(healed).model_copy(
        update={
            "unconscious": out.unconscious,
            "chirurgery_for_unconsciousness": condition.chirurgery_for_unconsciousness and not woke,
        }
    )


def __getattr__(name: str) -> type:
    """Event classes this module held before `events.py` (their topics in older events)."""
    return moved(__name__, name)


def upcast_forced(state: dict[str, Any]) -> None:
    """An event of a version that did not refuse the dead re-derives as forced."""
    state["inputs"] = {**state.get("inputs", {}), "force": True}
