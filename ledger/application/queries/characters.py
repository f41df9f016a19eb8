"""`character show` and `character list`: a character's projected state, and the party's.

Now (no `as_of`, outside a batch) each reads the characters' rows alone, without a domain model
(start-up is most of what they cost: tests/perf/test_start_up.py); as of an event, or where the rows
cannot answer, the characters are folded from the log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ....domain.registry import system_title
from ..reply import Reply
from ..text import aligned
from ..views.rows import current_list, current_view
from .base import Query, answers, field, required

if TYPE_CHECKING:
    from ..ledger import Ledger

AS_OF = "The state right after an event id, #position or ISO time."


@dataclass(frozen=True, kw_only=True)
class CharacterShow(Query):
    """The current (or past) projected state of a character: condition and sheet."""

    query: ClassVar[str] = "character show"
    name: str = required("The character.")
    as_of: str | None = field(AS_OF)


@dataclass(frozen=True, kw_only=True)
class CharacterList(Query):
    """All characters of the campaign, a line each."""

    query: ClassVar[str] = "character list"
    as_of: str | None = field("As the campaign stood right after an event id, #position or ISO time.")
    retired: bool = field("Retired characters too.", False)


@answers(CharacterShow)
def show(ledger: Ledger, asked: CharacterShow) -> Reply:
    data = None
    if asked.as_of is None and ledger.batch is None:  # the common case: one row, no domain model loaded
        data = current_view(ledger.app, ledger.campaign, asked.name)
    if data is None:
        from ..views.characters import character_view

        data = character_view(ledger.read(), asked.name, asked.as_of)
    return Reply(lambda: data, lambda: sheet_text(data))


def sheet_text(data: dict[str, Any]) -> str:
    """A character's view as the system's players read it (the row keeps the domain's `sheet_lines`)."""
    kind = "" if data.get("kind", "character") == "character" else f", {data['kind']}"
    retired = ", retired" if data.get("retired") else ""
    title = f"{system_title(data['system'])}{kind}{retired}, version {data['version']}"
    head = f"{data['name']} ({title}): {data['summary']}"
    return "\n".join([head, *(f"  {line}" for line in data["sheet_lines"])])


@answers(CharacterList)
def listed(ledger: Ledger, asked: CharacterList) -> Reply:
    rows = None
    if asked.as_of is None and ledger.batch is None:  # the common case: the rows alone, no domain model loaded
        rows = current_list(ledger.app, ledger.campaign, asked.retired)
    if rows is None:
        from ..views.characters import character_list

        rows = character_list(ledger.read(), asked.as_of, asked.retired)
    return Reply(lambda: {"characters": rows}, lambda: party_text(rows))


def party_text(rows: list[dict[str, Any]]) -> str:
    return aligned(
        ("character", "version", "condition"),
        [(r["name"] + (" (retired)" if r.get("retired") else ""), r["version"], r["summary"]) for r in rows],
    )
