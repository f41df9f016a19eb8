"""Every event in sentences for people: the common events here, the
rest by their system's `explain`. Pure: it reads the event alone, never storage.

`name` is the character the event is recorded on, or "" for an event of the campaign itself. No
Python reprs, no `key=value`, no True/False/None: values are written in words (`words`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC
from typing import Any, TypeVar
from uuid import UUID

from . import systems
from .amendments import Amended
from .campaign import (
    CampaignArchived,
    CampaignChosen,
    CampaignStarted,
    RulingChanged,
    SessionEnded,
    SessionStarted,
    WinterBegan,
)
from .character import CharacterRegistered
from .commitments import DiceCommitted
from .events import DomainEvent
from .growth import CharacterCast, CharacterRenamed, CharacterRetired, NoteTaken, SheetChanged
from .participants import ParticipantInvited, ParticipantRemoved, ParticipantSet
from .registry import system_title
from .rolls import DiceRolled
from .tellers import tell

E = TypeVar("E", bound=DomainEvent)
TELLERS: dict[type[DomainEvent], Callable[[Any, str], str]] = {}  # the common events; each system has its own


PositionOf = Callable[[UUID, int], int]
"""The log position of an aggregate's event by its version (the index's `position_of`; 0: none)."""
Places = Callable[[int], int]
"""`PositionOf` for one aggregate: the log position of its event by its version."""


def explain(event: DomainEvent, name: str, system: str | None, position_of: PositionOf | None = None) -> str:
    """One paragraph about `event`: who did what, the numbers that decided, the result, the reason given.
    The common events are told here, a system's own by its `explain`; an event no teller knows raises
    `Unexplained` (tests/domain/test_words.py holds every event type to its sentences). `position_of`,
    where the log is known, names the events a correction speaks of by their positions (`#47`), as `amend`
    and `replay` do; without it a correction names them by their versions and ids."""
    if position_of is not None and isinstance(event, Amended):
        return _correction(event, name, functools.partial(position_of, event.originator_id))
    if system is None or any(kind in TELLERS for kind in type(event).__mro__):
        return tell(TELLERS, event, name)
    return systems.get(system).explain(event, name)


def _explains(event_class: type[E]) -> Callable[[Callable[[E, str], str]], Callable[[E, str], str]]:
    def register(function: Callable[[E, str], str]) -> Callable[[E, str], str]:
        TELLERS[event_class] = function
        return function

    return register


@_explains(CampaignStarted)
def _campaign_started(event: CampaignStarted, name: str) -> str:
    gm = f" {event.by} is its gm." if event.gm_key else ""
    return f"The campaign {event.name} began, played by the {system_title(event.system)} rules.{gm}"


@_explains(RulingChanged)
def _ruling_changed(event: RulingChanged, name: str) -> str:
    before = "had no value" if event.previous is None else f"was {outcome_words(event.previous)}"
    now = outcome_words(event.value)
    return f"The ruling {field_words(event.key)} is now {now} (it {before}){_because(event.reason)}."


@_explains(CharacterRegistered)
def _registered(event: CharacterRegistered, name: str) -> str:
    rules = systems.get(event.system)
    sheet = rules.Sheet.model_validate(event.sheet)
    summary = rules.summary(sheet, rules.Condition())
    as_kind = "" if event.kind == "character" else f" as {_article(event.kind)} {event.kind}"
    as_kind += ", not of the party" if event.npc else ""
    return f"{event.name} was registered{as_kind} ({system_title(event.system)}): {summary}."


@_explains(DiceRolled)
def _dice_rolled(event: DiceRolled, name: str) -> str:
    who = name or "The table"
    reason = f' for "{_one_line(event.reason)}"' if event.reason.strip() else ""
    at_table = " (the table's own dice)" if event.dice.source == "table" else ""
    if not event.faces:
        return f"{who} rolled {event.notation}{reason}, which needs no dice: a total of {event.total}."
    shown = [f"{face}" if kept else f"{face} (dropped)" for face, kept in zip(event.faces, event.kept, strict=True)]
    return f"{who} rolled {event.notation}{reason}{at_table}: {_listed(shown)}, a total of {event.total}."


@_explains(Amended)
def _amended(event: Amended, name: str) -> str:
    return _correction(event, name, None)


def _correction(event: Amended, name: str, places: Places | None) -> str:
    at = _position(event.target_version, places)
    target = f"{_possessive(name)} event " + (f"at {at}" if at else f"{event.target_version} ({event.target[:8]})")
    if event.void:
        done = f"A correction voids {target}"
    else:
        given = [f"{field_words(key)} {outcome_words(value)}" for key, value in (event.inputs or {}).items()]
        given += [f"{_purpose(purpose)} {words(faces)}" for purpose, faces in event.table.items()]
        done = (
            f"A correction decides {target} again with {_listed(given)}"
            if given
            else f"A correction decides {target} again"
        )
    return f"{done}{_because(event.reason)}. {_changes(event.changes, places)}"


def _purpose(purpose: str) -> str:
    """ "the save roll", "hit 1's save": a corrected die as the table says it."""
    from .changes import purpose_words

    return purpose_words(purpose)


@_explains(WinterBegan)
def _winter_began(event: WinterBegan, name: str) -> str:
    by = "rolled at the table" if event.source == "table" else "rolled by the ledger"
    return (
        f"Winter began in the year {event.year}: the land roll was {event.land_roll} ({by}),"
        f" a land modifier of {event.land_modifier:+d}."
    )


@_explains(DiceCommitted)
def _dice_committed(event: DiceCommitted, name: str) -> str:
    return (
        f"The ledger committed to its next {event.length:,} dice seeds (their chain begins {event.head[:16]}…):"
        " each roll it makes from now on reveals the next one."
    )


@_explains(SessionStarted)
def _session_started(event: SessionStarted, name: str) -> str:
    title = f': "{_one_line(event.title)}"' if event.title.strip() else ""
    return f"Session {event.number} began{title}."


@_explains(SessionEnded)
def _session_ended(event: SessionEnded, name: str) -> str:
    digest = f"; the ledger's digest was then {event.digest}" if event.digest else ""
    return f"Session {event.number} ended{digest}."


@_explains(CampaignChosen)
def _chosen(event: CampaignChosen, name: str) -> str:
    return "This became the current campaign: later commands act on it unless told otherwise."


@_explains(ParticipantSet)
def _participant_set(event: ParticipantSet, name: str) -> str:
    role = "a gm" if event.role == "gm" else "a player"
    plays = f", playing {_listed(event.plays)}" if event.plays else ""
    joined = " by the invitation they were given" if event.invitation else ""
    return f"{event.name} takes part as {role}{plays}, with the key {event.key}{joined}{_because(event.reason)}."


@_explains(ParticipantInvited)
def _participant_invited(event: ParticipantInvited, name: str) -> str:
    role = "a gm" if event.role == "gm" else "a player"
    plays = f", playing {_listed(event.plays)}" if event.plays else ""
    until = event.expires.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"{event.name} was invited to take part as {role}{plays}: the invitation holds once, until {until}."


@_explains(ParticipantRemoved)
def _participant_removed(event: ParticipantRemoved, name: str) -> str:
    return f"{event.name} no longer takes part{_because(event.reason)}; their key signs nothing more here."


@_explains(CampaignArchived)
def _archived(event: CampaignArchived, name: str) -> str:
    return f"The campaign was archived{_because(event.reason)}; its events are kept."


@_explains(SheetChanged)
def _sheet_changed(event: SheetChanged, name: str) -> str:
    changed = [f"{field_words(key)} to {value}" for key, value in event.changes.items()]
    return f"{_possessive(name)} sheet changed from here on: {_listed(changed)}{_because(event.reason)}."


@_explains(CharacterRenamed)
def _renamed(event: CharacterRenamed, name: str) -> str:
    return f"{event.previous} is now called {event.name}{_because(event.reason)}."


@_explains(CharacterCast)
def _cast(event: CharacterCast, name: str) -> str:
    side = "leaves the party for the others (foes, the gm's people)" if event.npc else "joins the party"
    return f"{name or 'The character'} {side}{_because(event.reason)}."


@_explains(CharacterRetired)
def _retired(event: CharacterRetired, name: str) -> str:
    return f"{_subject(name)} retired{_because(event.reason)}."


@_explains(NoteTaken)
def _note(event: NoteTaken, name: str) -> str:
    about = f"A note on {name}" if name else "A note on the campaign"
    return f'{about}: "{_one_line(event.text)}".'


def _position(version: int, places: Places | None) -> str:
    """`#47`, the log position of the aggregate's event at `version`; "" where it is not known."""
    at = places(version) if places is not None else 0
    return f"#{at}" if at else ""


def _changes(changes: Iterable[Mapping[str, Any]], places: Places | None = None) -> str:
    """What a correction's re-derivation changed, event by event (`refold.differences`): only the values
    that changed, in words (domain/changes.py)."""
    from .changes import change_words

    by_version: dict[int, list[str]] = {}
    for change in changes:
        field, before, after = change["field"], change["recorded"], change["replayed"]
        if field == "counts":
            said = ["no longer counts" if before and not after else "counts again"]
        elif field == "hits" and any(isinstance(hit, Mapping) for hit in [*(before or ()), *(after or ())]):
            continue  # (an attack's hits: their injuries' own changes say it)
        else:
            said = change_words(field, before, after)
        by_version.setdefault(change["version"], []).extend(said)
    if not by_version:
        return "No recorded outcome changed."
    parts = [
        f"{_position(version, places) or f'event {version}'}: {_listed(said)}"
        for version, said in sorted(by_version.items())
    ]
    return f"It changed {'; '.join(parts)}."


def outcome_words(value: object) -> str:
    """A recorded value in words, a rule's own term too: a state as its system says it ("needs
    Chirurgery"), any other term spaced out ("no_effect": "no effect"), a list of them joined."""
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return _listed([outcome_words(item) for item in value]) or "none"
    if isinstance(value, str) and value.isidentifier():
        return _any_state_words().get(value) or field_words(value)
    return words(value)


def state_words(system: str, state: str) -> str:
    """One of the `states` of a character of SYSTEM (`character show --json`) as people say it: the
    badge of the table view, the words of a summary ("knocked_out": "knocked out")."""
    return systems.get(system).STATE_WORDS.get(state) or field_words(state)


@functools.cache
def _any_state_words() -> dict[str, str]:
    """Every system's states in words (a correction's changes name states without their system: no two
    systems say the same state differently)."""
    return {state: said for system in systems.PACKAGES for state, said in systems.get(system).STATE_WORDS.items()}


def words(value: object) -> str:
    """A value as a person reads it: yes and no, "nothing", lists joined, mappings as "key value"."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return _one_line(value) or "nothing"
    if isinstance(value, Mapping):
        return _listed([f"{field_words(str(k))} {words(v)}" for k, v in value.items()]) or "nothing"
    if isinstance(value, (list, tuple, set, frozenset)):
        return _listed([words(v) for v in value]) or "none"
    return str(value)


def _listed(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 2:
        return " and ".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _because(reason: str) -> str:
    return f': "{_one_line(reason)}"' if reason.strip() else ""


def _one_line(text: str) -> str:
    return " ".join(text.split())


FIELD_WORDS = {"after_dr": "damage after DR", "dc": "DC", "dr": "DR", "ac": "AC", "thac0": "THAC0", "hd": "hit dice"}


def field_words(key: str) -> str:
    """A field of an event or a sheet as people name it: "damage after DR", "save roll"."""
    return FIELD_WORDS.get(key) or key.replace("_", " ")


def _subject(name: str) -> str:
    return name or "The campaign"


def _possessive(name: str) -> str:
    if not name:
        return "the campaign's"
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"
