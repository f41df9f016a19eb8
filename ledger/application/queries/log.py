"""`log`: the events, oldest first, each with its position, time, author and sentences.

People's `log` (no event fields asked for), outside a batch and without --since, --until or --session,
is told from rows alone (`views/told.py`: no domain model loaded, so `log --tail 20` at the table costs
little more than start-up); anything else reads the events themselves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from annotated_types import Ge, Le

from ....domain.limits import INT64_MAX
from ..reply import Reply
from ..text import stories
from ..views.told import told_log
from .base import Query, answers, field

if TYPE_CHECKING:
    from ..ledger import Ledger


@dataclass(frozen=True, kw_only=True)
class Log(Query):
    """The events, oldest first: position, time, author, and what each decided in sentences."""

    query: ClassVar[str] = "log"
    name: str | None = field("Only this character's events.")
    since: str | None = field("The events at or after this event id, #position or ISO time.")
    until: str | None = field("The events at or before this event id, #position or ISO time.")
    tail: Annotated[int, Ge(0), Le(INT64_MAX)] | None = field("Only the newest N (still oldest first).")
    session: str | int | None = field("Only the events of session N (or `last`).")
    data: bool = field(
        "Each event's recorded fields too (`data`), as the JSON document has them.", True, document=False
    )


@answers(Log)
def log(ledger: Ledger, asked: Log) -> Reply:
    told = None
    plain = asked.since is None and asked.until is None and asked.session is None
    if not asked.data and ledger.batch is None and plain:  # the common case: rows alone, no domain model loaded
        told = told_log(ledger.app, ledger.campaign, asked.name, asked.tail)
    if told is not None:
        campaign, rows = told
    else:
        from ..views.history import events  # (it loads the domain's models)

        session = ledger.read()
        sitting = None if asked.session is None else str(asked.session)
        rows = list(events(session, asked.name, asked.since, asked.until, asked.tail, sitting, data=asked.data))
        campaign = session.campaign.name
    columns = ledger.presentation.columns

    def text() -> str:
        return stories(rows, columns(), campaign, who=asked.name is None) if rows else "No events."

    return Reply(lambda: document(rows), text)


def document(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The events as the JSON document has them: the contract's ISO times (UTC), not people's local times."""
    return {"events": [{key: value for key, value in row.items() if key != "local_time"} for row in rows]}
