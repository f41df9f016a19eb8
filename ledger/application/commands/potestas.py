"""The Potestas commands (seed 000; docs/rulings.md, Potestas): injure, dying-save, exert, rest, fall and attack. Each
loads its characters once and records one event (an attack: one, then one per hit); the rules and their
sentences are the domain's (`chronicle.domain.potestas`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from pydantic import Field

from ....domain.character import Character
from ....domain.errors import BadInput, CharacterRefused, Refusal
from ....domain.potestas import (
    Attacked,
    AttackInputs,
    Condition,
    DyingSaveInputs,
    DyingSaveMade,
    Exerted,
    ExertionInputs,
    FallInputs,
    Fell,
    Injured,
    InjuryInputs,
    Rested,
    RestInputs,
    Sheet,
    Weapon,
    choose_weapons,
    parse_weapon,
)
from ....domain.potestas.attack_text import damage_breakdown
from ....domain.potestas.explain import unused_reason
from ....domain.potestas.recovery import check_rest
from ..recorded import Recorded
from ..session import Session
from .base import Command, Reply, handles
from .fields import D20, Count, Faces, Int64, d20_table, rest_length
from .inputs import inputs
from .replies import recorded_reply, told_all

POTESTAS = ("potestas",)


class Acting(Command):
    """What every Potestas command shares: a player records it for the character NAME they play."""

    systems = POTESTAS
    role = "player"
    character = "name"


def ignored_notes(recorded: Recorded, options: Mapping[str, str]) -> list[str]:
    """A note for each of the table's dice the rules did not ask for, naming the option it came from and why
    (the JSON document's `notes`)."""
    return [
        f"{options.get(purpose, purpose)} {', '.join(map(str, faces))} ignored: "
        f"{unused_reason(recorded.event, purpose)}"
        for purpose, faces in recorded.ignored.items()
    ]


def sheet_of(character: Character) -> Sheet:
    return cast(Sheet, character.sheet)


def condition_of(character: Character) -> Condition:
    return cast(Condition, character.condition)


# --- injure, fall ---------------------------------------------------------------------------------


class Injure(Acting):
    """Apply damage to NAME: damage reduction, then a Fortitude save against 15 + damage // 5; a failure is
    a wound (or a nonlethal wound)."""

    command = "injure"
    name: str
    damage: Count = Field(description="Damage before DR (energy riders included).")
    nonlethal: bool = Field(False, description="Nonlethal damage: a failed save is a nonlethal wound.")
    type: str | None = Field(None, description="Damage type and qualities, comma-separated (slashing,magic).")
    save_roll: D20 | None = Field(None, description="The table's d20 Fortitude save.")
    force: bool = Field(False, description="Injure a dead character or a destroyed object anyway.")

    def understood(self) -> None:
        self.blow()

    def blow(self) -> InjuryInputs:
        return inputs(InjuryInputs, damage=self.damage, type=self.type, nonlethal=self.nonlethal, force=self.force)


@handles(Injure)
def injure(session: Session, command: Injure) -> Reply:
    character = session.character(command.name, acting=True)
    recorded = session.record(character, Injured, command.blow(), {"save": d20_table(command.save_roll)})
    notes = ignored_notes(recorded, {"save": "--save-roll"})
    return recorded_reply(recorded, lambda document: {**document, "notes": notes})


class Fall(Acting):
    """NAME falls FEET feet: 4 bludgeoning damage per full 5 ft/s of impact velocity, then the injury rules."""

    command = "fall"
    name: str
    feet: Count = Field(description="Height of the fall in feet.")
    save_roll: D20 | None = Field(None, description="The table's d20 Fortitude save.")
    force: bool = Field(False, description="Let a dead character or destroyed object fall anyway.")

    def understood(self) -> None:
        self.drop()

    def drop(self) -> FallInputs:
        return inputs(FallInputs, feet=self.feet, force=self.force)


@handles(Fall)
def fall(session: Session, command: Fall) -> Reply:
    character = session.character(command.name, acting=True)
    recorded = session.record(character, Fell, command.drop(), {"save": d20_table(command.save_roll)})
    notes = ignored_notes(recorded, {"save": "--save-roll"})

    def document(recorded_document: dict[str, Any]) -> dict[str, Any]:
        """The fall's and the injury's keys at the top, as `injure --json` has them."""
        result = {**recorded_document, "notes": notes}
        return {
            **result,
            **result["fall"],
            **result["injury"],
            "condition": result["condition"],
            "event": result["event"],
            "version": result["version"],
        }

    return recorded_reply(recorded, document)


# --- dying-save, exert, rest ----------------------------------------------------------------------


class DyingSave(Acting):
    """A dying character's save for this turn: stable on a success, still dying on a failure."""

    command = "dying-save"
    label = "Dying save"
    name: str
    roll: D20 | None = Field(None, description="The table's d20.")
    rounds: Int64 | None = Field(
        None, description="Rounds NAME lay unconscious before this one that no event shows; they add to the DC."
    )

    def understood(self) -> None:
        self.save()

    def save(self) -> DyingSaveInputs:
        return inputs(DyingSaveInputs, rounds=self.rounds)


@handles(DyingSave)
def dying_save(session: Session, command: DyingSave) -> Reply:
    character = session.character(command.name, acting=True)
    return recorded_reply(session.record(character, DyingSaveMade, command.save(), {"save": d20_table(command.roll)}))


class Exert(Acting):
    """A strenuous action by NAME: disabled becomes dying, staggered becomes unconscious."""

    command = "exert"
    name: str
    action: str | None = Field(None, description="What was done: a standard action, moving over half speed, ...")


@handles(Exert)
def exert(session: Session, command: Exert) -> Reply:
    character = session.character(command.name, acting=True)
    return recorded_reply(session.record(character, Exerted, inputs(ExertionInputs, action=command.action)))


class Rest(Acting):
    """Natural healing for NAME over hours (wounds) or minutes (nonlethal wounds): exactly one of them."""

    command = "rest"
    name: str
    hours: Count | None = Field(None, description="Hours of rest: 1 wound per 8 hours, 3 per full day.")
    minutes: Count | None = Field(None, description="Minutes of rest: 1 nonlethal wound per 20 minutes, 3 an hour.")
    interrupted: bool = Field(False, description="The rest was interrupted: time passes, nothing heals.")
    days: Count | None = Field(None, description="Days of rest (24 hours each): 3 wounds a full day.")
    weeks: Count | None = Field(None, description="Weeks of rest (168 hours each).")
    force: bool = Field(False, description="Rest a dead character, or a dying one not yet stable, anyway.")

    def understood(self) -> None:
        self.rest()

    def rest(self) -> RestInputs:
        hours, minutes = rest_length(self.hours, self.minutes, self.days, self.weeks)
        return inputs(RestInputs, hours=hours, minutes=minutes, interrupted=self.interrupted, force=self.force)


@handles(Rest)
def rest(session: Session, command: Rest) -> Reply:
    character = session.character(command.name, acting=True)
    try:
        check_rest(sheet_of(character), condition_of(character), command.force)
    except CharacterRefused as refused:
        raise refused.of(character.name) from None
    return recorded_reply(session.record(character, Rested, command.rest()))


# --- attack ---------------------------------------------------------------------------------------

# the attack's declarations (AttackInputs fields): flags, then numbers
FLAGS = {
    "hurried": "Hurried: -4 (-2 with --rapid); a hit hits twice.",
    "rapid": "Rapid Shot, Rapid Strike or Haste: hurried at -2.",
    "iterative": "Iterative: one more hit per full 5 the roll beats the target by (ruling iterative_cap).",
    "multi_weapon_fighting": "Feat Multi-Weapon Fighting: multi-weapon at -2/-4, not -4/-6.",
    "weapon_group_unarmed": "Feat Weapon Group (Unarmed Strikes): lethal unarmed strikes at no -4, no provoking.",
    "flanking": "Flanking: +2 attack.",
    "flanker_ignored": "The target ignores this flanker: no +2, the target loses Dex and provokes.",
    "squeezing": "The attacker shares a square: -4 attack.",
    "target_squeezing": "The target shares a square: -4 defence.",
    "soft_cover": "The target has soft cover: +4 defence against ranged attacks only.",
    "target_armed": "The target is armed: unarmed attacks provoke.",
    "target_helpless": "The target is helpless for reasons the ledger does not show (bound, paralysed).",
    "coup_de_grace": "Coup de grace on a helpless target: an automatic critical, the save one degree worse.",
}
NUMBERS = {
    "range_penalty": "Range penalty for ranged weapons (0 or less).",
    "bonus_damage": "Sneak attack and the like: not multiplied on a critical.",
    "energy_damage": "Energy dealt with the blow: not multiplied, ignores DR.",
}


class Attack(Command):
    """ATTACKER attacks TARGET: d20 + attack bonus against 10 + defence, with the full-attack options declared;
    recorded on TARGET, then each hit as its own injury (DR and a save each)."""

    command = "attack"
    systems = POTESTAS
    role = "player"
    character = "attacker"

    attacker: str
    target: str
    weapon: list[str] = Field(
        [], description="Weapons on ATTACKER's sheet by name, or full specs name:damage=D,...; default its only one."
    )
    roll: D20 | None = Field(None, description="The table's d20 attack roll.")
    confirm_roll: D20 | None = Field(None, description="The table's d20 confirmation roll (needs roll).")
    dice: Faces | None = Field(None, description="The table's damage dice, hit by hit and weapon by weapon.")
    save_roll: list[D20] = Field([], description="The table's d20 injury saves, for hit 1, 2, ...")
    multi_weapon: bool = Field(False, description="A multi-weapon attack: with every weapon named, or on the sheet.")
    nonlethal: bool | None = Field(None, description="Nonlethal (true) or lethal (false); default the weapons' own.")
    force: bool = Field(False, description="Attack a dead character or destroyed object anyway.")
    hurried: bool = Field(False, description=FLAGS["hurried"])
    rapid: bool = Field(False, description=FLAGS["rapid"])
    iterative: bool = Field(False, description=FLAGS["iterative"])
    multi_weapon_fighting: bool = Field(False, description=FLAGS["multi_weapon_fighting"])
    weapon_group_unarmed: bool = Field(False, description=FLAGS["weapon_group_unarmed"])
    flanking: bool = Field(False, description=FLAGS["flanking"])
    flanker_ignored: bool = Field(False, description=FLAGS["flanker_ignored"])
    squeezing: bool = Field(False, description=FLAGS["squeezing"])
    target_squeezing: bool = Field(False, description=FLAGS["target_squeezing"])
    soft_cover: bool = Field(False, description=FLAGS["soft_cover"])
    target_armed: bool = Field(False, description=FLAGS["target_armed"])
    target_helpless: bool = Field(False, description=FLAGS["target_helpless"])
    coup_de_grace: bool = Field(False, description=FLAGS["coup_de_grace"])
    range_penalty: Int64 = Field(0, description=NUMBERS["range_penalty"])
    bonus_damage: Int64 = Field(0, description=NUMBERS["bonus_damage"])
    energy_damage: Count = Field(0, description=NUMBERS["energy_damage"])

    def understood(self) -> None:
        if (self.dice is not None or self.confirm_roll is not None) and self.roll is None and not self.coup_de_grace:
            raise BadInput("--dice and --confirm-roll need --roll: what they are used for depends on the attack roll")
        for spec in self.weapon:
            if ":" in spec:
                parse_weapon(spec)
        # the declarations checked as the domain checks them; the weapons come from the sheet later
        self.declared(weapons=(Weapon(),))

    def declared(self, **attacker: Any) -> AttackInputs:
        """The attack's inputs: the declarations, with `attacker`'s numbers and weapons."""
        chosen = {name: getattr(self, name) for name in (*FLAGS, *NUMBERS) if getattr(self, name)}
        return inputs(AttackInputs, nonlethal=self.nonlethal, **attacker, **chosen)


@handles(Attack)
def attack(session: Session, command: Attack) -> Reply:
    striker = session.character(command.attacker, acting=True)
    victim = session.character(command.target)
    if condition_of(victim).finished and not command.force:
        raise Refusal(f"{victim.name} is already {condition_of(victim).lethal}; --force to attack anyway")
    sheet = sheet_of(striker)
    given = command.declared(
        attacker=striker.name,
        bab=sheet.bab,
        strength=sheet.strength,
        dex=sheet.dex,
        size=sheet.size,
        weapons=choose_weapons(striker.name, sheet, tuple(command.weapon), command.multi_weapon),
    )
    table = {"attack": d20_table(command.roll), "confirm": d20_table(command.confirm_roll), "damage": command.dice}
    struck = session.record(victim, Attacked, given, table)
    attacked = cast(Attacked, struck.event)
    injuries = [_injury(session, victim, blow, command, attacked.originator_version) for blow in attacked.outcome.hits]
    return _attack_reply(struck, injuries, command.save_roll)


def _injury(session: Session, victim: Character, blow: InjuryInputs, command: Attack, attack: int) -> Recorded:
    """One hit as an Injured event. A hit landing after an earlier hit of the same attack killed the target
    is still recorded (forced): the blow happened, and a what-if replay needs it."""
    if command.force or condition_of(victim).finished:
        blow = blow.model_copy(update={"force": True})
    rolls = command.save_roll
    roll = rolls[blow.hit - 1] if blow.hit <= len(rolls) else None
    return session.record(victim, Injured, blow, {blow.save_purpose: d20_table(roll)}, attack=attack)  # its attack


def _blow(injury: Recorded) -> InjuryInputs:
    return cast(Injured, injury.event).inputs


def _hit_notes(injury: Recorded) -> list[str]:
    hit = _blow(injury).hit
    return ignored_notes(injury, {f"save:{hit}": f"--save-roll #{hit}"})


def _attack_reply(struck: Recorded, injuries: list[Recorded], save_rolls: list[int]) -> Reply:
    beyond = [(n, roll) for n, roll in enumerate(save_rolls, 1) if n > len(injuries)]
    notes = ignored_notes(struck, {"attack": "--roll", "confirm": "--confirm-roll"})
    notes += [note for injury in injuries for note in _hit_notes(injury)]
    notes += [f"--save-roll #{n} {roll} ignored: there was no hit {n}" for n, roll in beyond]

    def document() -> dict[str, Any]:
        event = cast(Attacked, struck.event)
        given, outcome, ruled = event.inputs, event.outcome, event.ruled
        attack = {
            **struck.document,
            "weapons": [{"name": w.name, "bonus": given.weapon_bonus(w, ruled)} for w in given.weapons],
            "notes": [n for n in notes if not n.startswith("--save-roll")],
        }
        hits = [
            {
                **injury.document,
                "hit": _blow(injury).hit,
                "critical": _blow(injury).critical,
                "coup_de_grace": _blow(injury).coup_de_grace,
                "notes": _hit_notes(injury),
                "breakdown": damage_breakdown(given, _blow(injury), outcome.multiplier, ruled),
            }
            for injury in injuries
        ]
        last = injuries[-1] if injuries else struck
        return {
            "event": struck.event_id,
            "version": last.version,
            "attacker": given.attacker,
            "target": struck.name,
            "hit": outcome.hit,
            "critical": outcome.critical,
            "attack": attack,
            "injuries": hits,
            "events": [struck.event_id, *(i.event_id for i in injuries)],
            "notes": notes,
            "condition": last.document["condition"],
        }

    said = [f"The table's save die for hit {n} ({roll}) was not needed: there was no hit {n}." for n, roll in beyond]
    return Reply(document, lambda: told_all([struck, *injuries], said))
