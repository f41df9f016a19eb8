"""PenDragon Pass injuries and healing (docs/rulings.md, PenDragon Pass, Injury): injure, first-aid, heal, rest and
chirurgery."""

from __future__ import annotations

from typing import cast

from pydantic import Field

from ....domain.character import Character
from ....domain.errors import BadInput
from ....domain.pendragon import ChirurgeryPerformed, FirstAidGiven, Injured, MagicallyHealed, Rested
from ....domain.pendragon.chirurgery import ChirurgeryInputs, check_healer
from ....domain.pendragon.condition import Condition
from ....domain.pendragon.injury import FirstAidInputs, InjureInputs, MagicHealInputs
from ....domain.pendragon.recovery import RestInputs
from ..session import Session
from .base import Reply, handles
from .fields import D20, Count, Int64, rest_length
from .inputs import inputs
from .pendragon_common import D3, D6, At, OnCharacter, record, table, value_on, when


def condition_of(character: Character) -> Condition:
    return cast(Condition, character.condition)


class Injure(OnCharacter):
    """One wound of DAMAGE on NAME, tracked on its own: a wound of CON or more is a major wound (needs
    Chirurgery), damage over SIZ a knockdown; at a quarter of hit points NAME falls unconscious (ruling
    unconscious_threshold), at 0 dies. A dead character is refused unless forced."""

    command = "injure"
    damage: Count = Field(description="Damage of one blow, after armour.")
    save_roll: Int64 | None = Field(
        None,
        description="Ignored and not recorded: PenDragon Pass has no injury save (taken so that scripts written for "
        "every system run).",
    )
    attacker: str = Field("", description="Who dealt the blow, for the log.")
    force: bool = Field(False, description="Wound a dead character anyway.")
    at: At | None = None


@handles(Injure)
def injure(session: Session, command: Injure) -> Reply:
    wounded = condition_of(session.character(command.name))
    given = inputs(
        InjureInputs,
        damage=command.damage,
        wound=wounded.next_wound(),
        at=when(session, command.at),
        attacker=command.attacker,
        force=command.force,
    )
    return record(session, command, Injured, given)


class FirstAid(OnCharacter):
    """First Aid on NAME's wound WOUND: once per wound, within a day of it; heals 1d3. Without the
    healer's skill or name the aid is taken as successful. A dead character is refused unless forced."""

    command = "first-aid"
    label = "First aid"
    wound: Int64 = Field(description="The wound's number, as `injure` gave it.")
    roll: D20 | None = Field(None, description="The table's d20 for the healer's First Aid (needs skill or healer).")
    skill: Int64 | None = Field(None, description="The healer's First Aid value: a failed roll heals nothing.")
    healer: str | None = Field(None, description="The healer, whose first_aid value is copied in (instead of skill).")
    heal_roll: D3 | None = Field(None, description="The table's d3 of healing.")
    force: bool = Field(False, description="Treat a dead character anyway.")
    at: At | None = None

    def understood(self) -> None:
        if self.skill is not None and self.healer is not None:
            raise BadInput("give the healer's First Aid value or the healer's name, not both")
        if self.roll is not None and self.skill is None and self.healer is None:
            raise BadInput("the roll is the healer's First Aid roll: give the healer's value or name")


@handles(FirstAid)
def first_aid(session: Session, command: FirstAid) -> Reply:
    skill, healer = command.skill, ""
    if command.healer is not None:
        found = session.character(command.healer)
        skill, healer = value_on(found, "first_aid")[0], found.name
    given = inputs(
        FirstAidInputs,
        wound=command.wound,
        at=when(session, command.at),
        skill=skill,
        healer=healer,
        force=command.force,
    )
    return record(session, command, FirstAidGiven, given, table(check=command.roll, heal=command.heal_roll))


class Heal(OnCharacter):
    """Magical healing of NAME's wound WOUND by POINTS: once per wound. Waking an unconscious character
    ends its need for Chirurgery; a major wound's only with a spell that heals all or regrows limbs. A
    dead character is refused unless forced."""

    command = "heal"
    wound: Int64 = Field(description="The wound's number, as `injure` gave it.")
    points: Count = Field(description="What the spell heals.")
    heals_all: bool = Field(False, description="The spell heals all damage (clears a major wound's need).")
    regrows_limbs: bool = Field(False, description="The spell regrows limbs (clears a major wound's need).")
    window_hours: Count = Field(1, description="The spell heals only wounds at most this many hours old.")
    any_age: bool = Field(False, description="The spell heals wounds of any age.")
    force: bool = Field(False, description="Heal a dead character anyway.")
    at: At | None = None


@handles(Heal)
def heal(session: Session, command: Heal) -> Reply:
    given = inputs(
        MagicHealInputs,
        wound=command.wound,
        points=command.points,
        at=when(session, command.at),
        heals_all=command.heals_all,
        regrows_limbs=command.regrows_limbs,
        window_hours=command.window_hours,
        force=command.force,
    )
    if command.any_age:
        given = given.model_copy(update={"window_hours": None})
    return record(session, command, MagicallyHealed, given)


class Rest(OnCharacter):
    """Natural healing: NAME heals its Healing Rate, (STR + CON) // 10, per full week of rest, oldest
    wounds first; wounds awaiting Chirurgery do not heal on their own. A rest that heals nothing is
    still recorded; a dead character's is refused unless forced."""

    command = "rest"
    hours: Count | None = Field(None, description="Hours of rest.")
    minutes: Count | None = Field(None, description="Minutes of rest.")
    days: Count | None = Field(None, description="Days of rest (24 hours each).")
    weeks: Count | None = Field(None, description="Weeks of rest (168 hours each): the Healing Rate a full week.")
    interrupted: bool = Field(False, description="A significant interruption: nothing heals.")
    force: bool = Field(False, description="Rest a dead character anyway.")

    def understood(self) -> None:
        rest_length(self.hours, self.minutes, self.days, self.weeks)


@handles(Rest)
def rest(session: Session, command: Rest) -> Reply:
    hours, minutes = rest_length(command.hours, command.minutes, command.days, command.weeks)
    given = inputs(RestInputs, hours=hours, minutes=minutes, interrupted=command.interrupted, force=command.force)
    return record(session, command, Rested, given)


class Chirurgery(OnCharacter):
    """Chirurgery on NAME (a major wound, or after falling unconscious): a d20 against the healer's
    Chirurgery, once a week of care (ruling chirurgery_interval_days). Success ends every need for
    Chirurgery, so rest heals again; a critical also heals the Healing Rate at once (ruling
    chirurgery_critical); failure changes nothing; a fumble deals a new wound of 1d6. Refused on the
    dead, on a patient who needs none, and by the patient on themself."""

    command = "chirurgery"
    healer: str | None = Field(None, description="Who operates; their chirurgery value is copied in (never NAME).")
    skill: Count | None = Field(None, description="The healer's Chirurgery value, when the healer has no sheet.")
    roll: D20 | None = Field(None, description="The table's d20 for the healer's Chirurgery.")
    damage_roll: D6 | None = Field(None, description="The table's d6 of a fumble's wound.")
    at: At | None = None

    def understood(self) -> None:
        if (self.skill is None) == (self.healer is None):
            raise BadInput("give the healer's name or the healer's Chirurgery value: one of them")


@handles(Chirurgery)
def chirurgery(session: Session, command: Chirurgery) -> Reply:
    skill, healer = command.skill, command.healer or ""
    if command.healer is not None:
        found = session.character(command.healer)
        check_healer(session.character(command.name).name, found.name)
        skill, healer = value_on(found, "chirurgery")[0], found.name
    patient = condition_of(session.character(command.name))
    given = inputs(
        ChirurgeryInputs, skill=skill, healer=healer, at=when(session, command.at), wound=patient.next_wound()
    )
    return record(session, command, ChirurgeryPerformed, given, table(check=command.roll, damage=command.damage_roll))
