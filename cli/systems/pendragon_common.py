"""What the PenDragon Pass commands share: the system check, recording on one character, reading an
opponent's value, and the Status line people read."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, NamedTuple

import click

from ...domain import ids
from ...domain.errors import BadInput
from ...domain.pendragon import explain
from ..actions import Later, describe
from ..output import emit

SYSTEM = "pendragon-pass"
# Dispatched commands (`injure`) run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}


def pendragon_character(session: Any, name: str, command: str) -> Any:
    """The character NAME of a pendragon-pass campaign (most of these commands are not dispatched by system)."""
    system = session.campaign.system
    if system != SYSTEM:
        raise BadInput(f"{command} is a {SYSTEM} command; campaign {session.campaign.name!r} is {system}")
    return session.character(name)


class Told(NamedTuple):
    """What a command prints: the JSON document (built when read) and the event's sentences."""

    document: Later
    sentences: str


def resolve_on(session: Any, name: str, event_class: type, given: Any, table: dict[str, Any] | None = None,
               command: str | None = None) -> Told:
    """Record `event_class` on NAME; the result document (`event`, `version`, outcome, `condition`,
    `dice`) plus the character's `status` and `increases` as `character show` gives them, built when read,
    and the event told in sentences (the domain's `explain`)."""
    character = pendragon_character(session, name, command or event_class.__name__)
    event = session.resolve(character, event_class, given, table)
    rules, sheet, condition = session.rules, character.sheet, character.condition  # as the event left them
    document = describe(character, event).then(lambda result: with_status(rules.view(sheet, condition), result))
    return Told(document, f"{explain(event, character.name)}  [event {ids.event_id(event.originator_id, event.originator_version)}]")


def emit_told(env: Any, told: Told) -> None:
    emit(env, told.document, lambda: told.sentences)


def with_status(view: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """`status` is the character's Status block (from its `view`); an outcome's own `status` (the Status
    an oath, a geas or a winter gained) moves to `status_gained`."""
    gained = result.pop("status", None)
    if isinstance(gained, int):
        result["status_gained"] = gained
    return {**result, "status": view["status"], "increases": view["increases"]}


def value_of(session: Any, ref: str, option: str) -> tuple[str, int, Any]:
    """`NAME:SKILL` -> (ref, the value on NAME's sheet, NAME's sheet); copied into the inputs so the
    event alone re-derives its outcome."""
    who, sep, what = ref.rpartition(":")
    if not sep or not who or not what:
        raise BadInput(f"{option} takes NAME:SKILL, got {ref!r}")
    other = pendragon_character(session, who, option)
    return ref, other.sheet.value(what), other.sheet


def table_roll(value: int | None) -> list[int] | None:
    return None if value is None else [value]


def now() -> datetime:
    return datetime.now(timezone.utc)


def when(text: str | None) -> datetime:
    """`--at` (ISO-8601; UTC when no zone is given), else now."""
    if text is None:
        return now()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(f"--at takes an ISO-8601 time such as 1621-03-01T12:00, got {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


AT = click.option("--at", metavar="TIME", help="When it happened (ISO-8601), for the First Aid and healing windows; default now.")
