"""What the PenDragon Pass commands share: the system check, recording on one character, reading an
opponent's value, and the Status line people read."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import click

from ...domain.errors import BadInput
from ..actions import Later, describe

SYSTEM = "pendragon-pass"
# Dispatched commands (`injure`) run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}


def pendragon_character(session: Any, name: str, command: str) -> Any:
    """The character NAME of a pendragon-pass campaign (most of these commands are not dispatched by system)."""
    system = session.campaign.system
    if system != SYSTEM:
        raise BadInput(f"{command} is a {SYSTEM} command; campaign {session.campaign.name!r} is {system}")
    return session.character(name)


def resolve_on(session: Any, name: str, event_class: type, given: Any, table: dict[str, Any] | None = None,
               command: str | None = None) -> Later:
    """Record `event_class` on NAME; the result document (`event`, `version`, outcome, `condition`,
    `dice`) plus the character's `status` and `increases` as `character show` gives them, built when read."""
    character = pendragon_character(session, name, command or event_class.__name__)
    event = session.resolve(character, event_class, given, table)
    rules, sheet, condition = session.rules, character.sheet, character.condition  # as the event left them
    return describe(character, event).then(lambda result: with_status(rules.view(sheet, condition), result))


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


def status_line(result: dict[str, Any]) -> str:
    status = result["status"]
    pending = f", {status['increases_pending']} increase(s) pending" if status["increases_pending"] else ""
    return f"Status {status['total']}{pending}.  [event {result['event']}]"


def roll_text(roll: dict[str, Any] | None) -> str:
    if not roll:
        return "-"
    total = f" (total {roll['total']})" if roll["total"] != roll["roll"] else ""
    return f"{roll['roll']}{total} vs {roll['value']}: {roll['result'].replace('_', ' ')}"


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
