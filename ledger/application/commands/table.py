"""The commands of every rule system: campaigns, characters, sessions, notes and free rolls."""

from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import Field

from ....domain.campaign import Campaign
from ....domain.character import Character
from ....domain.dice import Expression
from ....domain.dice import parse as parse_notation
from ....domain.errors import BadInput
from ....domain.explain import explain, outcome_words
from ....domain.ids import event_id
from ....domain.registry import NAMES, system_title
from ....domain.rolls import DiceRolled
from ....domain.rolls import roll as roll_dice
from .. import rulings
from ..session import Session
from ..sheet_files import sheet_pairs
from ..views import campaigns, characters
from .base import Command, Reply, handles
from .fields import Faces, Int64, Pairs, pairs

SYSTEMS = NAMES  # (domain/registry.py)

if TYPE_CHECKING:
    SystemName = str
else:  # one of the systems' names, as a Literal: the document's schema lists them
    SystemName = Literal[NAMES]


def _tagged(result: dict[str, Any]) -> str:
    return f"[event {result['event']}, version {result['version']}]"


class CampaignNew(Command):
    """Start a campaign under a rule system, with the default rulings; it becomes the current one."""

    command = "campaign new"
    opens_campaign = True
    name: str = Field(description="The campaign's name.")
    system: SystemName = Field(description="The rule system.")


@handles(CampaignNew)
def campaign_new(session: Session, command: CampaignNew) -> Reply:
    if not command.name.strip():
        raise BadInput("a campaign needs a name")
    started = session.start_campaign(command.name, command.system, gm_key=session.key)
    result = {
        "event": started.last_event_id,
        "version": started.version,
        "campaign": started.name,
        "system": command.system,
        "id": str(started.id),
    }
    return Reply.of(
        result, f"Started campaign {started.name} ({system_title(command.system)}).  [event {result['event']}]"
    )


class CampaignRule(Command):
    """Change one ruling from this point of the log on, with the table's reason."""

    command = "campaign rule"
    assignment: str = Field(description="The ruling and its new value, KEY=VALUE.")
    reason: str = Field(description="Why the table changed the ruling (kept in the log).")


@handles(CampaignRule)
def campaign_rule(session: Session, command: CampaignRule) -> Reply:
    result = rulings.change_ruling(session, command.assignment, command.reason)
    return Reply.of(
        result,
        f"The ruling {result['key'].replace('_', ' ')} changes from {outcome_words(result['previous'])} to "
        f"{outcome_words(result['value'])}: {command.reason}.  [event {result['event']}]",
    )


class CampaignUse(Command):
    """Make NAME the campaign your later commands act on without --campaign (your own choice: nothing is
    recorded in any log)."""

    command = "campaign use"
    chooses = True
    name: str = Field(description="The campaign.")


@handles(CampaignUse)
def campaign_use(session: Session, command: CampaignUse) -> Reply:
    result = campaigns.use(session, command.name)
    return Reply.of(result, f"Your later commands act on {result['campaign']}.")


class CampaignArchive(Command):
    """Hide a campaign from lists (made by mistake or by the demo); its events stay."""

    command = "campaign archive"
    name: str = Field(description="The campaign.")
    reason: str = Field(description="Why (kept in the log).")


@handles(CampaignArchive)
def campaign_archive(session: Session, command: CampaignArchive) -> Reply:
    result = campaigns.archive(session, command.name, command.reason)
    return Reply.of(result, f"Archived {result['campaign']}: {command.reason}  [event {result['event']}]")


class CharacterAdd(Command):
    """Register a character with the system's sheet fields."""

    command = "character add"
    name: str = Field(description="The character's name.")
    stat: Pairs = Field([], description="A sheet field, KEY=VALUE (repeatable).")
    sheet: dict[str, Any] | None = Field(
        None,
        description="Sheet keys as a sheet file holds them (the same keys as --stat; tables of stats, traits, "
        "passions or skills read as their keys); --stat wins over it.",
    )
    virtues: str | None = Field(None, description="PenDragon Pass: the five religious virtues, comma-separated.")
    object: bool = Field(False, description="Potestas: an object (hardness, thickness) rather than a creature.")
    npc: bool = Field(False, description="One of the others (a foe, a monster, the gm's people), not of the party.")


@handles(CharacterAdd)
def character_add(session: Session, command: CharacterAdd) -> Reply:
    stats, virtues, is_object = sheet_pairs(command.sheet or {})
    stats.update(pairs(command.stat))
    virtues = command.virtues if command.virtues is not None else virtues
    result = characters.add_character(session, command.name, stats, virtues, command.object or is_object, command.npc)
    others = ", one of the others" if command.npc else ""
    return Reply.of(
        result, f"Added {result['name']} ({system_title(result['system'])}{others}).  [event {result['event']}]"
    )


class CharacterSet(Command):
    """Growth, not correction: the sheet changes from this point of the log on."""

    command = "character set"
    name: str = Field(description="The character.")
    assignments: Pairs = Field([], description="The sheet's new values, KEY=VALUE.")
    npc: bool | None = Field(
        None, description="--npc: one of the others (foes, the gm's people) from now on; --pc: of the party."
    )
    reason: str = Field("", description="Why the sheet changes (a level gained, new armour).")


@handles(CharacterSet)
def character_set(session: Session, command: CharacterSet) -> Reply:
    if command.npc is not None:
        if command.assignments:
            raise BadInput("--npc and --pc change no sheet value: give them without KEY=VALUE")
        cast = characters.cast(session, command.name, command.npc, command.reason)
        side = "one of the others" if command.npc else "of the party"
        return Reply.of(cast, f"{cast['character']} is {side} from now on.  {_tagged(cast)}")
    if not command.assignments:
        raise BadInput("give the sheet's new values (KEY=VALUE), or --npc or --pc")
    result = characters.set_sheet(session, command.name, pairs(command.assignments), command.reason)
    changed = ", ".join(f"{key} {_value(value)}" for key, value in result["changes"].items())
    data = {k: result[k] for k in ("event", "version", "character", "sheet", "changes", "reason")}
    return Reply.of(data, f"{result['character']} grows: {changed} ({command.reason}).  {_tagged(result)}")


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {inner}" for key, inner in value.items())
    return str(value)


class CharacterRetire(Command):
    """The character leaves `character list`; further actions on it are refused."""

    command = "character retire"
    character = "name"
    name: str = Field(description="The character.")
    reason: str = Field(description="Why the character leaves the campaign.")


@handles(CharacterRetire)
def character_retire(session: Session, command: CharacterRetire) -> Reply:
    result = characters.retire(session, command.name, command.reason)
    return Reply.of(result, f"{result['character']} retires: {command.reason}.  {_tagged(result)}")


class CharacterRename(Command):
    """The character OLD answers to NEW from now on; its log and history stay whole."""

    command = "character rename"
    character = "old"
    old: str = Field(description="The character's name now.")
    new: str = Field(description="Its name from now on.")
    reason: str = Field("", description="Why (kept in the log).")


@handles(CharacterRename)
def character_rename(session: Session, command: CharacterRename) -> Reply:
    result = characters.rename(session, command.old, command.new, command.reason)
    return Reply.of(result, f"{result['previous']} is now called {result['character']}.  {_tagged(result)}")


class SessionStart(Command):
    """Begin the next session (one event on the campaign)."""

    command = "session start"
    label = "Start a session"
    title: str = Field("", description="The session's title.")


@handles(SessionStart)
def session_start(session: Session, command: SessionStart) -> Reply:
    result = campaigns.start_session(session, command.title)
    named = f": {command.title}" if command.title else ""
    return Reply.of(result, f"Session {result['number']} begins{named}.  [event {result['event']}]")


class SessionEnd(Command):
    """End the running session, with the ledger's digest to note."""

    command = "session end"
    label = "End the session"


@handles(SessionEnd)
def session_end(session: Session, command: SessionEnd) -> Reply:
    result = campaigns.end_session(session, session.log_digest())
    return Reply.of(
        result,
        f"Session {result['number']} ends. The log's fingerprint tonight is {result['digest']}: note it, and "
        f"`chronicle verify --digest {result['digest']}` proves later that the log still holds tonight.  "
        f"[event {result['event']}]",
    )


class Note(Command):
    """Record free text in the log, on a character or on the campaign."""

    command = "note"
    role = "player"
    character = "for_"
    text: str = Field(description="What the note says.")
    for_: str | None = Field(None, alias="for", description="The character the note is about (else the campaign).")


@handles(Note)
def note(session: Session, command: Note) -> Reply:
    result = characters.note(session, command.text, command.for_)
    about = f" about {result['for']}" if result["for"] else ""
    return Reply.of(result, f"Noted{about}: {command.text}  {_tagged(result)}")


class Roll(Command):
    """Roll dice and record the result, on a character or on the campaign."""

    command = "roll"
    role = "player"
    character = "for_"
    notation: str = Field(description="What to roll: NdX, dX, d%, constants, kh/kl/dh/dl, + - * / and parentheses.")
    for_: str | None = Field(None, alias="for", description="The character the roll is for (else the campaign).")
    reason: str = Field("", description="What the roll was for.")
    roll: Int64 | None = Field(None, description="The table's result of a notation of one die.")
    dice: Faces | None = Field(None, description="The table's own faces, comma-separated, in rolled order.")

    def understood(self) -> None:
        self.table()  # a bad notation or table dice fail before the ledger is opened

    def expression(self) -> Expression:
        return parse_notation(self.notation)

    def table(self) -> list[int] | None:
        """The faces the table rolled itself: `roll` for a notation of one die, else `dice`."""
        if self.roll is None:
            return self.dice
        if self.dice is not None:
            raise BadInput("give the table's dice once: --roll N for one die, or --dice FACES for several")
        expression = self.expression()
        count = sum(term.count for term in expression.dice)
        if count != 1:
            rolls = f"rolls {count} dice: give their faces with --dice" if count else "rolls no dice"
            raise BadInput(f"--roll gives the result of one die, but {expression} {rolls}")
        return [self.roll]


@handles(Roll)
def roll(session: Session, command: Roll) -> Reply:
    expression, table = command.expression(), command.table()
    owner: Character | Campaign = session.character(command.for_, acting=True) if command.for_ else session.campaign
    dice = session.dice({"roll": table} if table is not None else None)
    rolled = roll_dice(expression, dice)  # first: a new commitment to fair dice is recorded before the roll
    owner.trigger_event(DiceRolled, reason=command.reason, by=session.by, timestamp=session.now(), **rolled)
    event = cast(DiceRolled, owner.pending_events[-1])
    name = owner.name if command.for_ else ""
    ident = event_id(event.originator_id, event.originator_version)

    def document() -> dict[str, Any]:
        return {
            "event": ident,
            "version": event.originator_version,
            "notation": event.notation,
            "total": event.total,
            "faces": list(event.faces),
            "kept": list(event.kept),
            "source": event.dice.source,
            "for": name or None,
            "reason": command.reason,
        }

    return Reply(document, lambda: f"{explain(event, name, None)}  [event {ident}]")
