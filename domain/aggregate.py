"""The aggregate base: the library's `BaseAggregate`, driven by sealed (hash-chained) pydantic events."""

from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime
from typing import TYPE_CHECKING, Any, Self
from uuid import UUID

from eventsourcing.domain import BaseAggregate
from eventsourcing.utils import get_topic

from .ids import event_id

if TYPE_CHECKING:
    from .events import Created, Event


# Whether events made now are sealed with their hash: not while a command decides (the ledger seals each of
# its events once, with its signature: ledger/trust/signing.py), nor while `verify` runs a signed command
# again only to compare what it makes with what was recorded (ledger/trust/derivation.py).
SEALING: ContextVar[bool] = ContextVar("sealing", default=True)


class Aggregate(BaseAggregate[UUID]):
    """Its `head_hash` (set by every event) is the hash of its newest event: the next one's prev_hash.
    State attributes are set by the events' `apply`, not declared: the library would make
    annotated aggregates dataclasses."""

    head_hash = ""

    @property
    def last_event_id(self) -> str:
        """The public id of the aggregate's newest event (what a command that appended prints)."""
        return event_id(self.id, self.version)

    @classmethod
    def start(cls, event_class: type[Created], id: UUID, *, timestamp: datetime, **kwargs: Any) -> Self:  # noqa: A002
        """A new aggregate from its first event. Time, like the author, is given: the domain reads no clock."""
        event = event_class(
            originator_id=id, originator_version=1, originator_topic=get_topic(cls), timestamp=timestamp, **kwargs
        )
        event = event.sealed() if SEALING.get() else event.unsealed()
        aggregate: Self = event.mutate(None)  # the aggregate `originator_topic` names: this class
        aggregate.pending_events.append(event)
        return aggregate

    def trigger_event(self, event_class: type[Event], *, timestamp: datetime, **kwargs: Any) -> None:  # type: ignore[override]
        event = event_class(
            originator_id=self.id,
            originator_version=self.version + 1,
            prev_hash=self.head_hash,
            timestamp=timestamp,
            **kwargs,
        )
        event = event.sealed() if SEALING.get() else event.unsealed()
        event.mutate(self)
        self.pending_events.append(event)
