"""Chirurgery (standard Pendragon; the seed names it, docs/rulings.md, PenDragon Pass Injury).

A major wound, and a character who fell unconscious, need Chirurgery before they heal on their own.
The healer (never the patient) rolls a d20 against their Chirurgery, once per week of care (ruling
`chirurgery_interval_days`):
- success: every need for Chirurgery ends, so natural healing (`rest`) proceeds;
- critical: as a success, and the patient heals its Healing Rate at once (ruling `chirurgery_critical`);
- failure: nothing changes; it may be tried again after the interval;
- fumble: the patient takes a new wound of 1d6, and still needs Chirurgery.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput, CharacterRefused, Refusal
from ..model import Model
from .condition import Condition, Wound, hp, is_unconscious_at
from .recovery import healing_rate
from .resolution import Result, Roll, check
from .rulings import ChirurgeryCritical, Rulings
from .sheet import Sheet

FUMBLE_DAMAGE = 6  # a d6


def _unnumbered(wound: int | None) -> bool:
    return wound is None


class ChirurgeryInputs(Model):
    skill: int = Field(ge=0)  # the healer's Chirurgery, copied from their sheet or given by the table
    wound: int | None = Field(
        None,
        exclude_if=_unnumbered,
        description="The number a fumble's wound takes, given when it was recorded (as an injury's).",
    )
    healer: str = ""  # who operates, for the log (never the patient: `check_healer`)
    at: datetime | None = None  # when, for the interval between attempts


class ChirurgeryOutcome(Model):
    roll: Roll
    treated: bool  # the need for Chirurgery ended: natural healing proceeds
    healed: dict[int, int] = {}  # a critical's Healing Rate, wound id -> hit points
    wound: int | None = None  # a fumble's new wound
    damage: int = 0  # its 1d6
    major: bool = False  # that wound is of CON or more
    hp: int
    unconscious: bool
    dead: bool = False


def check_healer(patient: str, healer: str) -> None:
    if healer and healer == patient:
        raise Refusal(f"{patient} cannot perform Chirurgery on themself: another character must")


def needs_chirurgery(condition: Condition) -> bool:
    return condition.chirurgery_for_unconsciousness or any(
        w.needs_chirurgery and w.amount > 0 for w in condition.wounds
    )


def operate(
    sheet: Sheet, condition: Condition, inputs: ChirurgeryInputs, rulings: Rulings, dice: Dice
) -> ChirurgeryOutcome:
    """Dice: "check" (d20, the healer's Chirurgery) and "damage" (d6, on a fumble)."""
    if hp(sheet, condition) <= 0:
        raise CharacterRefused(" is dead: Chirurgery cannot help")
    if not needs_chirurgery(condition):
        raise Refusal("no wound or unconsciousness needs Chirurgery")
    last, interval = condition.chirurgery_at, timedelta(days=rulings.chirurgery_interval_days)
    if last is not None and inputs.at is not None:
        if inputs.at < last:
            raise BadInput(f"the Chirurgery is dated {inputs.at:%Y-%m-%d %H:%M}, before the last attempt")
        if inputs.at - last < interval:
            raise Refusal(
                f"Chirurgery was last tried at {last:%Y-%m-%d %H:%M}: the next attempt waits "
                f"{rulings.chirurgery_interval_days} days (ruling chirurgery_interval_days)"
            )
    roll = check(dice, inputs.skill)
    now = hp(sheet, condition)
    if roll.result is Result.fumble:
        damage = dice.d(FUMBLE_DAMAGE, "damage")
        after = now - damage
        return ChirurgeryOutcome(
            roll=roll,
            treated=False,
            wound=condition.next_wound(inputs.wound),
            damage=damage,
            major=damage >= sheet.con,
            hp=after,
            dead=after <= 0,
            unconscious=after > 0
            and (condition.unconscious or is_unconscious_at(after, sheet.max_hp, rulings.unconscious_threshold)),
        )
    if not roll.result.succeeded:
        return ChirurgeryOutcome(roll=roll, treated=False, hp=now, unconscious=condition.unconscious)
    healed: dict[int, int] = {}
    if roll.result is Result.critical and rulings.chirurgery_critical is ChirurgeryCritical.heals_rate:
        budget = healing_rate(sheet)
        for wound in condition.wounds:  # oldest first, as natural healing
            if budget and wound.amount:
                healed[wound.id] = min(wound.amount, budget)
                budget -= healed[wound.id]
    # waking still waits for natural healing above the threshold (`rest`) or magic
    return ChirurgeryOutcome(
        roll=roll, treated=True, healed=healed, hp=now + sum(healed.values()), unconscious=condition.unconscious
    )


def after_chirurgery(condition: Condition, inputs: ChirurgeryInputs, out: ChirurgeryOutcome) -> Condition:
    wounds = tuple(
        w.model_copy(
            update={
                "amount": w.amount - out.healed.get(w.id, 0),
                "needs_chirurgery": w.needs_chirurgery and not out.treated,
            }
        )
        for w in condition.wounds
    )
    if out.wound is not None:
        wounds += (
            Wound(
                id=out.wound,
                received=out.damage,
                amount=out.damage,
                major=out.major,
                needs_chirurgery=out.major,
                at=inputs.at,
            ),
        )
    return condition.model_copy(
        update={
            "wounds": wounds,
            "unconscious": out.unconscious,
            "chirurgery_at": inputs.at or condition.chirurgery_at,
            "chirurgery_for_unconsciousness": condition.chirurgery_for_unconsciousness and not out.treated,
        }
    )
