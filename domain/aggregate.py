"""The aggregate base: the library's `BaseAggregate`, driven by sealed (hash-chained) pydantic events."""

from __future__ import annotations

import itertools
from typing import Any
from uuid import UUID

from eventsourcing.domain import BaseAggregate
from eventsourcing.utils import get_topic

from .ids import event_id


_DECIDED = itertools.count()  # the order events are decided in this process, across aggregates


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
    def start(cls, event_class: type, id: UUID, **kwargs: Any) -> Any:  # noqa: A002
        kwargs.setdefault("timestamp", event_class.create_timestamp())
        event = event_class(originator_id=id, originator_version=1, originator_topic=get_topic(cls), **kwargs)
        event = event.sealed()
        aggregate = event.mutate(None)
        aggregate._hold(event)
        return aggregate

    def trigger_event(self, event_class: type, **kwargs: Any) -> None:  # type: ignore[override]
        kwargs.setdefault("timestamp", event_class.create_timestamp())
        event = event_class(originator_id=self.id, originator_version=self.version + 1, prev_hash=self.head_hash, **kwargs)
        event = event.sealed()
        event.mutate(self)
        self._hold(event)

    def _hold(self, event: Any) -> None:
        self.pending_events.append(event)
        self.__dict__.setdefault("_decided", []).append(next(_DECIDED))

    def collect_decided(self) -> list[tuple[int, Any]]:
        """The pending events with the order they were decided in (a unit of work saves several
        aggregates' events in that order: a batch's lines, not aggregate by aggregate)."""
        return list(zip(self.__dict__.pop("_decided", []), self.collect_events()))
