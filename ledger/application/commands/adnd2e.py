"""The AD&D 2E commands (seed 003; docs/rulings.md, AD&D 2E): injure, rest, attack, mug, and grab's contests, break-hold
and state. Each loads its characters once and records one event on the character it befalls; the rules and
their sentences are the domain's (`chronicle.domain.adnd2e`)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal, cast

from pydantic import Field

from ....domain.adnd2e import (
    Attacked,
    AttackInputs,
    BreakHoldInputs,
    Condition,
    Grabbed,
    GrabInputs,
    HoldContested,
    Injured,
    InjureInputs,
    Mugged,
    MugInputs,
    Rested,
    RestInputs,
    Sheet,
    StateChanged,
    StateInputs,
    Strength,
    monster_strength,
)
from ....domain.adnd2e.attacks import Maneuver, copied_from_attacker, defending_weapon
from ....domain.adnd2e.damage import Mode, check_rest
from ....domain.adnd2e.mugging import check_not_oneself, copied_from_mugger
from ....domain.character import Character
from ....domain.errors import BadInput, CharacterRefused, Refusal
from ..recorded import Recorded
from ..session import Session
from .base import Command, Reply, handles
from .fields import D20, Count, Faces, Int64, d20_table, rest_length
from .inputs import inputs
from .replies import recorded_reply, told, told_all

ADND2E = ("adnd2e",)


def sheet_of(character: Character) -> Sheet:
    return cast(Sheet, character.sheet)


def condition_of(character: Character) -> Condition:
    return cast(Condition, character.condition)


def _reply(recorded: Recorded, **first: Any) -> Reply:
    """The recorded event's reply; its document led by the other party's name (`attacker`, `mugger`, ...)."""
    return recorded_reply(recorded, lambda document: {**first, **document})


def _strength(text: str | None, key: str) -> Strength | None:
    """A Strength as written (`14`, `18/76`); a malformed one is bad input naming its key."""
    if text is None:
        return None
    try:
        return Strength.parse(text)
    except ValueError as problem:
        raise BadInput(f"--{key.replace('_', '-')}: {problem}") from None


def _monster(strength: str | None, attacks: str | None, carrier: bool, key: str) -> Strength | None:
    """A Strength given as such (`key`) or as a monster's attacks (`2-8/4-10/4-10`, +8 for a carrier)."""
    if attacks is None:
        return _strength(strength, key)
    if strength is not None:
        raise BadInput(f"give --{key.replace('_', '-')} or --attacks, not both")
    return Strength(score=monster_strength(attacks, carrier))


# --- injure, rest ---------------------------------------------------------------------------------


class Injure(Command):
    """Apply the rolled weapon damage to NAME, split into real and temporary damage by the mode; a sap also
    rolls its knockout chance."""

    command = "injure"
    systems = ADND2E
    role = "player"
    character = "name"

    name: str
    damage: Count = Field(description="The rolled weapon damage (magic bonus included).")
    mode: Mode = Field(description="lethal: all real; armed-nonlethal and subdual: half temporary; sap: 25% real.")
    knockout_roll: Int64 | None = Field(None, description="Sap: the table's d100 knockout roll.")
    knockout_dice: Faces | None = Field(None, description="Sap: the table's 2d8 faces for the knockout's rounds.")
    magic_bonus: Int64 | None = Field(None, description="Sap: the weapon's magic bonus, which a sap ignores.")
    attacker: str | None = Field(None, description="Who dealt the damage, for the story told in the log.")
    helpless: bool = Field(
        False, description="Sap: the victim is asleep or magically held though the ledger does not say so."
    )

    def understood(self) -> None:
        if self.knockout_roll is not None and not 1 <= self.knockout_roll <= 100:
            raise BadInput(f"a d100 shows 1 to 100, not {self.knockout_roll}")
        self.blow()

    def blow(self) -> InjureInputs:
        return inputs(
            InjureInputs,
            damage=self.damage,
            mode=self.mode,
            magic_bonus=self.magic_bonus,
            helpless=self.helpless,
            attacker=self.attacker,
        )


@handles(Injure)
def injure(session: Session, command: Injure) -> Reply:
    knockout = None if command.knockout_roll is None else [command.knockout_roll]
    table = {"knockout": knockout, "knockout_rounds": command.knockout_dice}
    return _reply(session.record(session.character(command.name, acting=True), Injured, command.blow(), table))


class Rest(Command):
    """Natural healing for NAME over hours or minutes (exactly one of them); recorded even if it heals nothing."""

    command = "rest"
    systems = ADND2E
    role = "player"
    character = "name"

    name: str
    hours: Count | None = Field(None, description="Hours of rest (1 real hp a full day, ruling real_recovery).")
    minutes: Count | None = Field(
        None, description="Minutes of rest (1 temporary hp a turn, ruling temporary_recovery)."
    )
    days: Count | None = Field(None, description="Days of rest (24 hours each).")
    weeks: Count | None = Field(None, description="Weeks of rest (168 hours each).")
    interrupted: bool = Field(False, description="The rest was interrupted: time passes, nothing heals.")
    force: bool = Field(False, description="Rest a dead character anyway (it heals nothing).")

    def understood(self) -> None:
        self.rest()

    def rest(self) -> RestInputs:
        hours, minutes = rest_length(self.hours, self.minutes, self.days, self.weeks)
        return inputs(RestInputs, hours=hours, minutes=minutes, interrupted=self.interrupted, force=self.force)


@handles(Rest)
def rest(session: Session, command: Rest) -> Reply:
    resting = session.character(command.name, acting=True)
    try:
        check_rest(condition_of(resting), command.force)
    except CharacterRefused as refused:
        raise refused.of(resting.name) from None
    return _reply(session.record(resting, Rested, command.rest()))


# --- attack, mug ----------------------------------------------------------------------------------


class Attack(Command):
    """One attack roll by ATTACKER on TARGET with the maneuver's modifiers, recorded on TARGET; THAC0, height,
    class and the weapon come from ATTACKER's sheet."""

    command = "attack"
    systems = ADND2E
    role = "player"
    character = "attacker"

    attacker: str
    target: str
    maneuver: Maneuver = Field(
        "normal", description="The kind of attack; called shots (sap, grab-*) add +1 to initiative."
    )
    weapon: str | None = Field(
        None, description="A weapon on ATTACKER's sheet, by name (default: its only one; bare-handed maneuvers none)."
    )
    missile: bool = Field(False, description="The weapon is thrown: a missile attack.")
    roll: D20 | None = Field(None, description="The table's d20 attack roll.")
    thac0: Int64 | None = Field(
        None,
        description="The attacker's THAC0, if not on its sheet (else a monster's by its hit dice, ruling "
        "monster_thac0, or 20).",
    )
    wrestling_round: Int64 | None = Field(
        None, description="Round of the wrestling bout (after the first: small weapons only)."
    )
    defender_armed: bool = Field(False, description="The target holds a weapon: against bare hands it strikes first.")
    defender_roll: D20 | None = Field(None, description="The table's d20 for the armed defender's first strike.")
    no_free_hand: bool = Field(False, description="The attacker has no free hand (no grab).")
    dice: Faces | None = Field(None, description="The table's faces for a hit's damage dice.")
    defender_weapon: str | None = Field(
        None, description="The weapon on TARGET's sheet its strike is made with (default: its only weapon)."
    )
    defender_dice: Faces | None = Field(None, description="The table's faces for the armed defender's damage dice.")
    knockout_roll: Int64 | None = Field(None, description="Sap: the table's d100 knockout roll, as injure takes it.")
    knockout_dice: Faces | None = Field(None, description="Sap: the table's 2d8 faces for the knockout's rounds.")

    def understood(self) -> None:
        if self.knockout_roll is not None and not 1 <= self.knockout_roll <= 100:
            raise BadInput(f"a d100 shows 1 to 100, not {self.knockout_roll}")


def _defending(victim: Character, command: Attack) -> dict[str, object]:
    """The armed defender's weapon as the attack's inputs copy it: its name, size and damage dice."""
    if not command.defender_armed:
        return {}
    weapon = defending_weapon(
        sheet_of(victim), victim.name, command.defender_weapon, command.maneuver, command.wrestling_round
    )
    if weapon is None:
        return {}
    return {
        "defender_weapon": weapon.name,
        "defender_weapon_size": weapon.size,
        "defender_damage_dice": weapon.damage,
    }


@handles(Attack)
def attack(session: Session, command: Attack) -> Reply:
    """The Attacked event on TARGET, then a hit's damage as an Injured event on TARGET naming it, and an armed
    defender's strike that hit as an Injured event on ATTACKER (lethal, its +4 counted)."""
    striker = session.character(command.attacker, acting=True)
    victim = session.character(command.target)
    copied = copied_from_attacker(
        striker.name,
        sheet_of(striker),
        condition_of(striker),
        command.weapon,
        command.missile,
        command.thac0,
        command.maneuver,
    )
    given = inputs(
        AttackInputs,
        **copied,
        maneuver=command.maneuver,
        wrestling_round=command.wrestling_round,
        defender_armed=command.defender_armed,
        free_hand=not command.no_free_hand,
        **_defending(victim, command),
    )
    if command.maneuver == "mug":
        check_not_oneself(striker.name, victim.name)
    table = {
        "attack": d20_table(command.roll),
        "defence": d20_table(command.defender_roll),
        "damage": command.dice,
        "defence_damage": command.defender_dice,
    }
    struck = session.record(victim, Attacked, given, table)
    event = cast(Attacked, struck.event)
    knockout = {"knockout": d20_table(command.knockout_roll), "knockout_rounds": command.knockout_dice}
    version = event.originator_version
    injuries = [session.record(victim, Injured, blow, knockout, attack=version) for blow in event.consequences()]
    blow = event.answer(victim.name)
    countered = None if blow is None else session.record(striker, Injured, blow, strike=struck.event_id)
    unheard = {} if injuries else {purpose: faces for purpose, faces in knockout.items() if faces}
    return _attack_reply(struck, injuries[0] if injuries else None, countered, striker.name, unheard)


def _injury_document(injury: Recorded) -> dict[str, Any]:
    outcome = cast(Injured, injury.event).outcome
    return {
        "event": injury.event_id,
        "character": injury.name,
        "damage": outcome.damage,
        "real": outcome.real,
        "temporary": outcome.temporary,
        "knocked_out": outcome.knocked_out,
        "condition": injury.document["condition"],
    }


def _attack_reply(
    struck: Recorded,
    injury: Recorded | None,
    countered: Recorded | None,
    attacker: str,
    unheard: dict[str, list[int]],
) -> Reply:
    """The attack's reply, its keys as before, with the hit's `injury` and the defender's strike's
    `attacker_injury` (null when none), and the keys every system's attack has: `target`, `attack` (the
    attack's own document), `injuries`, `events`, `notes` and `condition`; told event by event, the attacker's
    injury after. `damage` is what
    the injury counted (a sap drops a magic bonus); the knockout dice of a blow that dealt no injury are
    `ignored` with a note."""
    notes = [
        f"The table's {purpose.replace('_', ' ')} die ({', '.join(map(str, faces))}) was not needed: no sap's "
        "blow landed."
        for purpose, faces in unheard.items()
    ]

    def document() -> dict[str, Any]:
        found = {"attacker": attacker, **struck.document}
        unused = {**unheard, **(injury.ignored if injury is not None else {})}
        if unused:
            found["ignored"] = {**found.get("ignored", {}), **unused}
        found["injury"] = None if injury is None else _injury_document(injury)
        if injury is not None:
            found["damage"] = cast(Injured, injury.event).outcome.damage
        found["attacker_injury"] = None if countered is None else _injury_document(countered)
        found["events"] = [r.event_id for r in (struck, injury, countered) if r is not None]
        # the shape every system's attack shares (ledger/commands/potestas.py): the attack nested, its injuries
        found["target"] = struck.name
        found["attack"] = dict(struck.document)
        found["injuries"] = [] if found["injury"] is None else [found["injury"]]
        found["notes"] = notes
        if found["injury"] is not None:  # the target's condition after its injury; `version` stays the attack's
            found["condition"] = found["injury"]["condition"]
        return found

    def said() -> str:
        target = told_all([struck] if injury is None else [struck, injury], notes)
        return target if countered is None else f"{target}\n{told(countered)}"

    return Reply(document, said)


class Mug(Command):
    """After a mugging hit: VICTIM saves vs petrification (the base from its sheet's petrification unless
    given), the number raised by MUGGER's level minus VICTIM's level or hit dice; a failed save knocks out for
    2d8 rounds."""

    command = "mug"
    systems = ADND2E
    role = "player"
    character = "mugger"

    mugger: str
    victim: str
    save_number: Int64 | None = Field(
        None,
        ge=1,
        le=20,
        description="The victim's base save vs petrification (1-20); default its sheet's petrification.",
    )
    save_roll: D20 | None = Field(None, description="The table's d20 save roll.")
    knockout_dice: Faces | None = Field(None, description="The table's 2d8 faces for the knockout rounds.")
    weapon: str | None = Field(None, description="The blunt weapon on MUGGER's sheet (default: its only one).")


@handles(Mug)
def mug(session: Session, command: Mug) -> Reply:
    thief = session.character(command.mugger, acting=True)
    victim = session.character(command.victim)
    base = command.save_number if command.save_number is not None else sheet_of(victim).petrification
    if base is None:
        raise BadInput(
            f"give --save-number: {victim.name}'s sheet has no save vs petrification (set it with "
            "--stat petrification=N)"
        )
    given = inputs(MugInputs, save_number=base, **copied_from_mugger(thief.name, sheet_of(thief), command.weapon))
    check_not_oneself(thief.name, victim.name)
    table = {"save": d20_table(command.save_roll), "knockout_rounds": command.knockout_dice}
    return _reply(session.record(victim, Mugged, given, table), mugger=thief.name)


# --- grab -----------------------------------------------------------------------------------------


class GrabContest(Command):
    """A Strength contest after a grab hits, recorded on TARGET (the subclasses name which)."""

    kind: ClassVar[Literal["object", "person", "monster"]]
    systems = ADND2E
    role = "player"
    character = "grabber"

    grabber: str
    target: str
    strength: str | None = Field(None, description="The grabber's Strength (e.g. 18/76), if not on its sheet.")
    target_strength: str | None = Field(None, description="TARGET's Strength, if not on its sheet.")
    dice: Faces | None = Field(
        None, description="The table's d20s in rolled order, two an exchange (first the grabber's)."
    )

    def understood(self) -> None:
        self.strengths()

    def strengths(self) -> tuple[Strength | None, Strength | None]:
        """The grabber's and the target's Strength as given (None: from the sheet)."""
        return _strength(self.strength, "strength"), _strength(self.target_strength, "target_strength")


class GrabObject(GrabContest):
    """GRABBER tries to wrest an object from TARGET, its holder: both roll d20 against Strength, the better
    margin wins."""

    command = "grab object"
    kind = "object"


class GrabPerson(GrabContest):
    """GRABBER grabs TARGET one-handed: Strength 3 lower, adjusted for size; a win holds TARGET."""

    command = "grab person"
    kind = "person"


class GrabMonster(GrabContest):
    """GRABBER grabs the monster TARGET: Strength +3 against a smaller, -6 against a larger one; the monster's
    Strength from its sheet, target_strength or its attacks."""

    command = "grab monster"
    kind = "monster"

    attacks: str | None = Field(None, description="The monster's attacks (2-8/4-10/4-10) for its rough Strength.")
    carrier: bool = Field(False, description="With attacks: known for carrying, +8.")

    def strengths(self) -> tuple[Strength | None, Strength | None]:
        theirs = _monster(self.target_strength, self.attacks, self.carrier, "target_strength")
        return _strength(self.strength, "strength"), theirs


def grab_contest(session: Session, command: GrabContest) -> Reply:
    hand = session.character(command.grabber, acting=True)
    other = session.character(command.target)
    own, theirs = command.strengths()
    grabber_strength = own or sheet_of(hand).strength
    if grabber_strength is None:
        raise BadInput(f"{hand.name} has no str on its sheet: give --strength")
    given = inputs(
        GrabInputs,
        target=command.kind,
        grabber=hand.name,
        grabber_strength=grabber_strength,
        grabber_size=sheet_of(hand).size,
        target_strength=theirs,
    )
    return _reply(session.record(other, Grabbed, given, {"grab_round": command.dice}), grabber=hand.name)


for _contest in (GrabObject, GrabPerson, GrabMonster):
    handles(_contest)(grab_contest)


class GrabBreakHold(Command):
    """NAME, held, spends its attack on the Strength contest against its holder's Strength as it counted in
    the grab, or the holder_strength given, held one-handed."""

    command = "grab break-hold"
    systems = ADND2E
    role = "player"
    character = "name"

    name: str
    holder_strength: str | None = Field(None, description="The holder's Strength, held one-handed.")
    strength: str | None = Field(None, description="NAME's own Strength, if not on its sheet.")
    attacks: str | None = Field(None, description="NAME is a monster: its attacks give its rough Strength.")
    carrier: bool = Field(False, description="With attacks: known for carrying, +8.")
    dice: Faces | None = Field(None, description="The table's d20s, two an exchange (first NAME's).")

    def understood(self) -> None:
        self.strengths()

    def strengths(self) -> tuple[Strength | None, Strength | None]:
        """NAME's own Strength and its holder's, as given (None: from the sheet or the grab)."""
        own = _monster(self.strength, self.attacks, self.carrier, "strength")
        return own, _strength(self.holder_strength, "holder_strength")


@handles(GrabBreakHold)
def grab_break_hold(session: Session, command: GrabBreakHold) -> Reply:
    held = session.character(command.name, acting=True)
    condition = condition_of(held)
    holder = condition.held_by
    if holder is None:
        raise Refusal(f"{held.name} is not held")
    own, theirs = command.strengths()
    if theirs is None and condition.hold_strength is None and session.has_character(holder):
        theirs = sheet_of(session.character(holder)).strength
    if theirs is None and condition.hold_strength is None:
        raise BadInput(f"the Strength of {held.name}'s holder ({holder}) is unknown: give --holder-strength")
    given = inputs(BreakHoldInputs, holder=holder, holder_strength=theirs, held_strength=own)
    return _reply(session.record(held, HoldContested, given, {"hold_round": command.dice}), holder=holder)


class GrabState(Command):
    """Record one state change of NAME: asleep or awake, magically held or released, held by a holder or
    released from a hold. Asleep or magically held victims are hit automatically by a sap."""

    command = "grab state"
    systems = ADND2E
    character = "name"

    name: str
    asleep: bool | None = Field(None, description="A sleep spell took hold (true), or the sleeper woke (false).")
    magically_held: bool | None = Field(None, description="Hold person and the like (true), or its end (false).")
    held_by: str | None = Field(None, description="NAME is held by this holder (outside a recorded grab).")
    released: bool = Field(False, description="NAME's hold ends (the holder let go).")

    def understood(self) -> None:
        self.change()

    def change(self) -> StateInputs:
        changes = [
            ("asleep", self.asleep, None),
            ("magically_held", self.magically_held, None),
            ("held", True if self.held_by else None, self.held_by),
            ("held", False if self.released else None, None),
        ]
        chosen = [change for change in changes if change[1] is not None]
        if len(chosen) != 1:
            raise BadInput(
                "give exactly one of --asleep/--awake, --magically-held/--magic-released, --held-by or --released"
            )
        which, active, holder = chosen[0]
        return inputs(StateInputs, state=which, active=active, holder=holder)


@handles(GrabState)
def grab_state(session: Session, command: GrabState) -> Reply:
    held = session.character(command.name, acting=True)
    change = command.change()
    if command.held_by is not None:  # a holder is another character of the campaign (NotFound: exit 2)
        holder = session.character(command.held_by)
        if holder.id == held.id:
            raise BadInput(f"{held.name} cannot hold themself: --held-by names the character holding them")
        change = inputs(StateInputs, state="held", active=True, holder=holder.name)
    return _reply(session.record(held, StateChanged, change))
