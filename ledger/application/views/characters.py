"""Registering characters and reading their projected state (now or as of a REF)."""

from __future__ import annotations

from typing import Any

from ....domain.campaign import Campaign
from ....domain.character import Character
from ....domain.errors import BadInput, NotFound, Refusal
from ....domain.growth import CharacterCast, CharacterRenamed, CharacterRetired, NoteTaken, SheetChanged, sheet_changes
from ....domain.text import check_text, normalise_name, printable
from ....projections.characters import render
from ...store.snapshots import load as from_snapshot
from ..refs import position
from ..session import Session
from .rows import line


def add_character(
    session: Session, name: str, stats: dict[str, str], virtues: str | None, is_object: bool, npc: bool = False
) -> dict[str, Any]:
    if not name.strip():
        raise BadInput("a character needs a name")
    rules = session.rules
    given = {"object": is_object, "virtues": virtues is not None}
    unsupported = [option for option, used in given.items() if used and option not in rules.SHEET_OPTIONS]
    if unsupported:
        raise BadInput(f"--{unsupported[0]} is not an option of {rules.NAME} sheets")
    options: dict[str, Any] = {"kind": "object" if is_object else "character"}
    if virtues is not None:
        options["virtues"] = [v.strip() for v in virtues.split(",") if v.strip()]
    sheet = rules.parse_sheet(stats, **options)
    created = session.add_character(name, sheet, kind=options["kind"], npc=npc)
    return {
        "event": created.last_event_id,
        "version": created.version,
        "name": created.name,
        "system": rules.NAME,
        "npc": npc,
        "sheet": sheet.model_dump(mode="json"),
    }


def load(session: Session, name: str, as_of: str | None) -> Character:
    """The character now, or right after REF."""
    if as_of is None:
        return session.character(name)
    campaign = session.campaign
    app = session.app
    bound = position(app.index, campaign.id, as_of)
    ident = session.character_id(name)
    version = app.index.version_at(ident, bound)
    if version is None:
        session.character(name)  # a name the campaign never had is reported as such
        raise NotFound(f"{name} did not exist yet at {as_of}")
    loaded = from_snapshot(app, ident, version)
    if loaded is None:  # the index knows a version the log does not hold: say so rather than fail later
        raise NotFound(f"{name} has no version {version} in the log")
    character: Character = loaded[0]
    return character


def view(session: Session, character: Character) -> dict[str, Any]:
    return render(session.rules, character)


def character_view(session: Session, name: str, as_of: str | None) -> dict[str, Any]:
    """Now: the character's read-model row (no history is read); as of REF: folded from the log."""
    if as_of is None:
        ident = session.character_id(name)
        held = session.held(ident)
        if held is not None:  # inside a batch: its unsaved events count
            return view(session, held)
        row = session.app.characters.show(ident)
        if row is not None:
            return row
    return view(session, load(session, name, as_of))


def character_list(session: Session, as_of: str | None, retired: bool = False) -> list[dict[str, Any]]:
    """A line per character (retired ones only when asked)."""
    campaign = session.campaign
    if as_of is None:
        return [_line(data) for data in _current(session, campaign) if retired or not data.get("retired")]
    app = session.app
    app.index.catch_up()
    rows = []
    for _, name, _ in app.index.characters(campaign.id):
        try:
            character = load(session, name, as_of)
        except NotFound:
            continue  # not yet registered at that point of the log
        if retired or not character.retired:
            rows.append(_line(view(session, character)))
    return rows


def _current(session: Session, campaign: Campaign) -> list[dict[str, Any]]:
    """Every character's row, with the ones this session holds (a batch's unsaved work) taken from memory."""
    held = {a.name: a for a in session.held_all() if isinstance(a, Character) and a.campaign_id == campaign.id}
    found = []
    for data in session.app.characters.list(campaign.id):
        character = held.pop(data["name"], None)
        found.append(data if character is None else view(session, character))
    return found + [view(session, character) for character in held.values()]


_line = line  # ledger/application/views/rows.py: a `character list` without domain models makes the same lines


def set_sheet(session: Session, name: str, stats: dict[str, str], reason: str) -> dict[str, Any]:
    """Growth, not correction: the sheet changes from this point of the log on."""
    character = session.character(name, acting=True)
    fields = sheet_changes(session.rules, character.sheet, stats)
    character.trigger_event(
        SheetChanged, changes=stats, fields=fields, reason=required(reason), by=session.by, timestamp=session.now()
    )
    return {
        "event": character.last_event_id,
        "version": character.version,
        "character": character.name,
        "changes": fields,
        "reason": reason,
        "sheet": character.sheet.model_dump(mode="json"),
    }


def cast(session: Session, name: str, npc: bool, reason: str) -> dict[str, Any]:
    """The character joins the party, or leaves it for the others (foes, monsters, the gm's people)."""
    character = session.character(name, acting=True)
    if character.npc == npc:
        raise Refusal(f"{character.name} is {'one of the others' if npc else 'of the party'} already")
    character.trigger_event(CharacterCast, npc=npc, reason=reason, by=session.by, timestamp=session.now())
    return {
        "event": character.last_event_id,
        "version": character.version,
        "character": character.name,
        "npc": npc,
        "reason": reason,
    }


def retire(session: Session, name: str, reason: str) -> dict[str, Any]:
    character = session.character(name, acting=True)
    character.trigger_event(CharacterRetired, reason=required(reason), by=session.by, timestamp=session.now())
    return {
        "event": character.last_event_id,
        "version": character.version,
        "character": character.name,
        "reason": reason,
    }


def rename(session: Session, old: str, new: str, reason: str) -> dict[str, Any]:
    character = session.character(old, acting=True)
    new = normalise_name(new, "new name")
    if new == character.name:
        raise BadInput(f"{printable(new)} is already the character's name")
    if new.casefold() != character.name.casefold() and session.has_character(new):
        raise Refusal(f"campaign {printable(session.campaign.name)} already has a character named {printable(new)}")
    previous = character.name
    character.trigger_event(
        CharacterRenamed, name=new, previous=previous, reason=reason, by=session.by, timestamp=session.now()
    )
    return {
        "event": character.last_event_id,
        "version": character.version,
        "character": new,
        "previous": previous,
        "reason": reason,
    }


def note(session: Session, text: str, name: str | None) -> dict[str, Any]:
    """Free text on a character (any, retired too) or on the campaign."""
    owner = session.character(name) if name else session.campaign
    owner.trigger_event(
        NoteTaken, text=check_text(required(text, "a note"), "the note"), by=session.by, timestamp=session.now()
    )
    return {"event": owner.last_event_id, "version": owner.version, "for": name and owner.name, "text": text}


def required(text: str, what: str = "--reason") -> str:
    if not text.strip():
        raise BadInput(f"{what} must say something" if what != "--reason" else "--reason must say why")
    return text
