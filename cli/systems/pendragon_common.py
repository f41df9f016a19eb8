"""What the PenDragon Pass commands share: the system check, recording on one character (one load, one
derive), reading an opponent's value, and the reply: the JSON document and the domain's sentences."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import click

from ...domain.character import Character
from ...domain.errors import BadInput
from ...domain.events import Resolution
from ...domain.model import Model
from ...domain.pendragon import explain
from ...ledger.recorded import Recorded
from ...ledger.session import Session
from ..context import Env
from ..output import emit

SYSTEM = "pendragon-pass"
# Dispatched commands (`injure`) run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}


def pendragon_character(session: Session, name: str, command: str) -> Character:
    """The character NAME of a pendragon-pass campaign (most of these commands are not dispatched by system)."""
    system = session.campaign.system
    if system != SYSTEM:
        raise BadInput(f"{command} is a {SYSTEM} command; campaign {session.campaign.name!r} is {system}")
    return session.character(name)


@dataclass(frozen=True)
class Told:
    """What a command prints: the recorded event's JSON document and its sentences, each built when read."""

    recorded: Recorded

    def document(self) -> dict[str, Any]:
        recorded = self.recorded
        return with_status(recorded.rules.view(recorded.sheet, recorded.condition), dict(recorded.document))

    def sentences(self) -> str:
        lines = [explain(self.recorded.event, self.recorded.name)]
        for purpose, faces in self.recorded.ignored.items():
            lines.append(
                f"The table's {purpose.replace('_', ' ')} dice ({', '.join(map(str, faces))}) were not needed."
            )
        return "\n".join(lines) + f"  [event {self.recorded.event_id}]"


def resolve_on(
    session: Session,
    name: str,
    event_class: type[Resolution],
    given: Model,
    table: Mapping[str, list[int] | None] | None = None,
    command: str | None = None,
) -> Told:
    """Decide `event_class` once on NAME and record it (one load, one derive: `Session.record`)."""
    character = pendragon_character(session, name, command or event_class.__name__)
    return Told(session.record(character, event_class, given, table))


def emit_told(env: Env, told: Told) -> None:
    emit(env, told.document, told.sentences)


def with_status(view: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """`status` is the character's Status block (from its `view`); an outcome's own `status` (the Status
    an oath, a geas or a winter gained) moves to `status_gained`."""
    gained = result.pop("status", None)
    if isinstance(gained, int):
        result["status_gained"] = gained
    return {**result, "status": view["status"], "increases": view["increases"]}


def value_of(session: Session, ref: str, option: str) -> tuple[str, int, Any]:
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
    return datetime.now(UTC)


def when(text: str | None) -> datetime:
    """`--at` (ISO-8601; UTC when no zone is given), else now."""
    if text is None:
        return now()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(f"--at takes an ISO-8601 time such as 1621-03-01T12:00, got {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


AT = click.option(
    "--at", metavar="TIME", help="When it happened (ISO-8601), for the First Aid and healing windows; default now."
)
