"""What the AD&D 2E commands share: the system check, recording on one character, and the reply."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...domain.adnd2e import summary
from ...domain.character import Character
from ...domain.errors import BadInput
from ...domain.events import Resolution
from ...domain.model import Model
from ...ledger.recorded import Recorded
from ...ledger.session import Session


def adnd2e_character(session: Session, name: str, command: str) -> Character:
    """The character NAME of an adnd2e campaign (`mug` and `grab` are not dispatched by system)."""
    system = session.campaign.system
    if system != "adnd2e":
        raise BadInput(f"{command} is an adnd2e command; campaign {session.campaign.name!r} is {system}")
    return session.character(name)


def record_on(
    session: Session,
    name: str,
    action: type[Resolution],
    given: Model,
    table: Mapping[str, list[int] | None] | None = None,
) -> Recorded:
    """Decide `action` once on NAME and record it."""
    return session.record(adnd2e_character(session, name, action.__name__), action, given, table)


def document(recorded: Recorded, **extra: Any) -> dict[str, Any]:
    """The command's JSON: the other party's name first, then the recorded event's document."""
    return {**extra, **recorded.document}


def told(recorded: Recorded) -> str:
    """The command's reply for people: the event's sentences, the character's hit points now, the table's
    dice the rules did not need, and the event id."""
    lines = [recorded.rules.explain(recorded.event, recorded.name)]
    lines.append(f"Now {summary(recorded.sheet, recorded.condition)}.")
    for purpose, faces in recorded.ignored.items():
        lines.append(f"The table's {purpose.replace('_', ' ')} dice ({', '.join(map(str, faces))}) were not needed.")
    return "\n".join(lines) + f"  [event {recorded.event_id}]"
