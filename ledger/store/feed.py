"""The log as the read models are fed it (projections/feed.py): stored events read and decoded here,
where how they are stored is known, and folded there.

A page is decoded once, for every read model behind it; a read model builds the domain event only
when it needs more than the envelope (`LoggedEvent.event`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple
from uuid import UUID

from eventsourcing.application import Application

from ...projections.store import ViewStore, aggregate_id
from .mapper import EVENT, PydanticMapper, event_from_state, resolved

if TYPE_CHECKING:
    from ...domain.events import Event

HEX = "0123456789abcdef"
COLUMNS = "originator_id, originator_version, topic, state"  # after the position


class LoggedEvent(NamedTuple):
    """One stored event, its state decoded (`projections.feed.Logged`)."""

    position: int
    originator_id: UUID
    originator_version: int
    topic: str
    state: dict[str, Any]

    @property
    def event_class(self) -> type:
        return resolved(self.topic, EVENT)  # one of chronicle's events, else bad input (ledger/store/mapper.py)

    def event(self, folding: bool = False) -> Event:
        return event_from_state(self.topic, self.originator_id, self.originator_version, self.state, folding=folding)


class LogFeed:
    """`projections.feed.Feed` over the application's events table."""

    def __init__(self, app: Application, views: ViewStore):
        self.recorder, self.views = app.recorder, views
        mapper = app.mapper
        assert isinstance(mapper, PydanticMapper)
        self.decode, self.unreadable = mapper.state_decoder(), mapper.unreadable

    def last(self) -> int:
        return self.recorder.max_notification_id() or 0

    def after(self, position: int, limit: int) -> list[LoggedEvent]:
        decode = self.decode
        rows = self.recorder.select_notifications(start=position, limit=limit, inclusive_of_start=False)
        try:
            return [
                LoggedEvent(n.id, aggregate_id(n.originator_id), n.originator_version, n.topic, decode(n.state))
                for n in rows
            ]
        except ValueError:  # not JSON, or another key's: written by a process that won a race to a fresh ledger
            raise self.unreadable() from None

    def window(self, after: int, stop: int, limit: int, share: tuple[int, int] = (0, 1)) -> Iterator[list[LoggedEvent]]:
        """The log after position `after` up to `stop`, about `limit` events a page, read straight from
        the events table; with `share=(k, n)`, only the events of the k-th of n shares of the aggregates
        (by the last hex digit of the aggregate's id: uuid5 digits are evenly spread), so n processes
        that each fold a share read the log once between them, not n times.

        Each page is a window of positions (`limit * n` of them), not a LIMIT: whatever plan the database
        picks then reads that window only. (PostgreSQL, with no statistics yet on a freshly imported
        table, sorted every remaining row of the log for each page.)"""
        views, decode = self.views, self.decode
        table, at = views.events
        k, n = share
        digits = [d for d in HEX if int(d, 16) % n == k] if n > 1 else []
        mine = (
            " AND right(originator_id::text, 1) = ANY(?)"
            if views.postgres
            else f" AND substr(originator_id, -1) IN ({', '.join('?' * len(digits))})"
        )
        sql = views.sql(
            f"SELECT {at}, {COLUMNS} FROM {table}"
            f" WHERE {at} > ? AND {at} <= ?" + (mine if digits else "") + f" ORDER BY {at}"
        )
        uuids: dict[Any, UUID] = {}
        while after < stop:
            until = min(stop, after + limit * n)
            params = [after, until, *([digits] if views.postgres else digits)] if digits else [after, until]
            with views.transaction(commit=False) as cursor:
                cursor.execute(sql, params)
                rows = cursor.fetchall()
            after = until
            if not rows:
                continue
            try:
                page = _logged(rows, views.postgres, uuids, decode)
            except ValueError:  # (as in `after`)
                raise self.unreadable() from None
            yield page


def _logged(
    rows: Sequence[Any], postgres: bool, uuids: dict[Any, UUID], decode: Callable[[bytes], dict[str, Any]]
) -> list[LoggedEvent]:
    """Rows of (position, *COLUMNS), PostgreSQL's as dicts, each aggregate's id made a UUID once (`uuids`)."""
    found: list[LoggedEvent] = []
    add, logged = found.append, tuple.__new__  # the named tuple made without its Python-level __new__
    for position, oid, version, topic, state in [row.values() for row in rows] if postgres else rows:
        ident = uuids.get(oid)
        if ident is None:
            ident = uuids[oid] = aggregate_id(oid)
        add(logged(LoggedEvent, (position, ident, version, topic, decode(bytes(state)))))
    return found
