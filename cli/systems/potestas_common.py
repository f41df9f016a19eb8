"""What the Potestas commands share: the system check, the table's d20s, and rendering what was recorded.
The rules and the sentences live in `chronicle.domain.potestas`; this module only converts and renders."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...domain.character import Character
from ...domain.errors import BadInput
from ...domain.potestas import explain, summary
from ...domain.potestas.explain import unused_reason

if TYPE_CHECKING:
    from ...ledger.recorded import Recorded
    from ...ledger.session import Session

# Dispatched commands run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}


def potestas_character(session: Session, name: str, command: str) -> Character:
    """The character NAME of a potestas campaign (`dying-save`, `exert`, `fall` are not dispatched by system)."""
    system = session.campaign.system
    if system != "potestas":
        raise BadInput(f"{command} is a potestas command; campaign {session.campaign.name!r} is {system}")
    return session.character(name)


def d20(value: int | None, option: str) -> list[int] | None:
    """A table's d20 result as a dice-table entry; 0, 21 and the like are bad input even if unused."""
    if value is None:
        return None
    if not 1 <= value <= 20:
        raise BadInput(f"{option}: a d20 shows 1 to 20, not {value}")
    return [value]


def ignored_notes(recorded: Recorded, options: Mapping[str, str]) -> list[str]:
    """A note for each table die the rules did not ask for, naming the option it came from and why."""
    return [
        f"{options.get(purpose, purpose)} {', '.join(map(str, faces))} ignored: "
        f"{unused_reason(recorded.event, purpose)}"
        for purpose, faces in recorded.ignored.items()
    ]


def condition_line(recorded: Recorded) -> str:
    before = summary(recorded.sheet_before, recorded.condition_before)
    after = summary(recorded.sheet, recorded.condition)
    return f"Condition: {before} -> {after}.  [event {recorded.event_id}, version {recorded.version}]"


def told(recorded: Recorded, notes: list[str] | None = None) -> str:
    """The command's reply for people: the event's sentences, the notes, the condition before and after."""
    return "\n".join(
        [explain(recorded.event, recorded.name), *(f"Note: {note}" for note in notes or ()), condition_line(recorded)]
    )


def document(recorded: Recorded, notes: list[str]) -> dict[str, Any]:
    return {**recorded.document, "notes": notes}
