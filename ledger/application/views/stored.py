"""Rows of the events table read by position, and the domain event a row holds: below the log's reading
(history.py) and the campaign's sessions of play (campaigns.py), which both read them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple
from uuid import UUID

from ....projections.store import aggregate_id
from ...store.feed import COLUMNS
from ...store.mapper import StoredRow, mapper_of

if TYPE_CHECKING:
    from ....domain.events import Event
    from ...store.chronicle import Chronicle

PAGE = 2000


class Stored(NamedTuple):
    """A row of the events table, as the library's `Notification` has it."""

    id: int
    originator_id: UUID
    originator_version: int
    topic: str
    state: bytes


def notifications_at(app: Chronicle, positions: list[int]) -> Iterator[Stored]:
    """The events at `positions` (sorted, known to the index), a page at a time: a page whose
    positions are close together is read as their range, a sparse one (a character's events in a
    long campaign) position by position, so neither reads the rest of the log."""
    table, at = app.views.events
    select = f"SELECT {at}, {COLUMNS} FROM {table} WHERE "
    uuids: dict[Any, UUID] = {}
    for i in range(0, len(positions), PAGE):
        page = positions[i : i + PAGE]
        if page[-1] - page[0] < 2 * len(page):
            wanted = set(page)
            rows = [
                row
                for row in app.views.query(select + f"{at} BETWEEN ? AND ? ORDER BY {at}", (page[0], page[-1]))
                if row[0] in wanted
            ]
        else:
            rows = app.views.query(select + f"{at} IN ({', '.join('?' * len(page))}) ORDER BY {at}", page)
        yield from stored(rows, uuids)


def decoded(app: Chronicle, stored: StoredRow) -> Event:
    """The domain event a stored row holds (chronicle's mapper makes its pydantic events: ledger/store/mapper.py)."""
    event: Event = mapper_of(app).to_domain_event(stored)
    return event


def stored(rows: Iterable[Sequence[Any]], uuids: dict[Any, UUID]) -> list[Stored]:
    """Rows of (position, *COLUMNS) as `Stored`, each aggregate's id made a UUID once (`uuids`)."""
    found = []
    for position, oid, version, topic, state in rows:
        ident = uuids.get(oid)
        if ident is None:
            ident = uuids[oid] = aggregate_id(oid)
        found.append(Stored(position, ident, version, topic, bytes(state)))
    return found
