"""What the PenDragon Pass commands share: the command on one character, recording its action (one
load, one derive), an opponent's value copied from its sheet, the table's dice and times, and the
reply, whose document carries the character's Status block."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BeforeValidator, Field

from ....domain.character import Character
from ....domain.errors import BadInput, NotOnSheet
from ....domain.events import Resolution
from ....domain.model import Model
from ....domain.pendragon import Condition, Sheet
from ....domain.registry import of_package
from ..recorded import Recorded
from ..session import Session
from .base import Command, Reply, Role
from .fields import Int64
from .replies import recorded_reply

SYSTEMS = (of_package("pendragon"),)  # (domain/registry.py)


class OnCharacter(Command):
    """A PenDragon Pass command on the character NAME, which a player may ask for a character they play."""

    systems: ClassVar[tuple[str, ...]] = SYSTEMS
    role: ClassVar[Role] = "player"
    character: ClassVar[str | None] = "name"

    name: str = Field(description="The character.")


def record(
    session: Session,
    command: OnCharacter,
    action: type[Resolution],
    given: Model,
    table: Mapping[str, list[int] | None] | None = None,
) -> Reply:
    """Decide ACTION once on the command's character and record it; the reply of the recorded event."""
    character = session.character(command.name, acting=True)
    return reply(session.record(character, action, given, table))


def reply(recorded: Recorded) -> Reply:
    return recorded_reply(recorded, lambda document: with_status(recorded, document))


def with_status(recorded: Recorded, document: dict[str, Any]) -> dict[str, Any]:
    """The document with the character's `status` block and `increases` (docs/scripting.md); an outcome's own
    `status` (the Status an oath or a geas gained) moves to `status_gained`."""
    view = recorded.rules.view(recorded.sheet, recorded.condition)
    gained = document.pop("status", None)
    if isinstance(gained, int):
        document["status_gained"] = gained
    return {**document, "status": view["status"], "increases": view["increases"]}


def opponent_value(session: Session, ref: str) -> tuple[int, Sheet]:
    """`NAME:SKILL`: the value on NAME's sheet (copied into the event, so the event alone re-derives its
    outcome) and the sheet."""
    who, _, what = ref.rpartition(":")
    return value_on(session.character(who), what)


def value_on(character: Character, what: str) -> tuple[int, Sheet]:
    """WHAT's value on CHARACTER's sheet; one it lacks is bad input naming whose sheet and the nearest name."""
    sheet, _ = state(character)
    try:
        return sheet.value(what), sheet
    except NotOnSheet as lacking:
        raise lacking.of(character.name) from None


def state(character: Character) -> tuple[Sheet, Condition]:
    """The sheet and condition of a PenDragon Pass character."""
    sheet, condition = character.sheet, character.condition
    assert isinstance(sheet, Sheet) and isinstance(condition, Condition)
    return sheet, condition


def _name_and_skill(ref: str) -> str:
    who, sep, what = ref.rpartition(":")
    if not sep or not who.strip() or not what.strip():
        raise BadInput(f"an opponent is NAME:SKILL, such as Harrek:sword, got {ref[:60]!r}")
    return ref


def _die(sides: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and not 1 <= value <= sides:
            raise BadInput(f"a d{sides} shows 1 to {sides}, not {value}")
        return value

    return check


def _moment(text: str) -> str:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(f"a time is ISO-8601, such as 1621-03-01T12:00, got {text[:60]!r}") from None
    return text


NameSkill = Annotated[str, AfterValidator(_name_and_skill), Field(description="NAME:SKILL")]
D3 = Annotated[Int64, BeforeValidator(_die(3)), Field(description="The table's d3 (1 to 3).")]
D6 = Annotated[Int64, BeforeValidator(_die(6)), Field(description="The table's d6 (1 to 6).")]
At = Annotated[
    str,
    AfterValidator(_moment),
    Field(description="ISO-8601 time it happened (UTC when no zone is given), for the healing windows."),
]


def when(session: Session, at: str | None) -> datetime:
    """The time AT (UTC when it names no zone), else the session's now."""
    if at is None:
        return session.moment()
    moment = datetime.fromisoformat(at)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def table(**dice: int | None) -> dict[str, list[int] | None]:
    """The table's single dice by purpose (None: the ledger rolls it)."""
    return {purpose: None if face is None else [face] for purpose, face in dice.items()}
