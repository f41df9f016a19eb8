"""Snapshots of characters: the library's snapshotting with a typed pydantic state.

A snapshot's state is a `CharacterState` (domain/character_state.py): everything a Character
holds. A character is loaded from its newest snapshot and the events after it; the write side
never reads a read model's rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import CanSnapshotAggregate
from eventsourcing.persistence import EventStore
from eventsourcing.utils import get_topic

from ..domain.character import Character
from ..domain.character_state import CharacterState  # noqa: F401  (re-exported: the snapshot's state)
from ..domain.model import Model
from .mapper import AGGREGATE, mapper_of, resolved

INTERVAL = 100  # at most this many events are folded after the newest snapshot


class CharacterSnapshot(Model, CanSnapshotAggregate[UUID]):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    topic: str
    state: CharacterState

    @classmethod
    def take(cls, aggregate: Any) -> CharacterSnapshot:
        return cls(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=cls.create_timestamp(),
            topic=get_topic(type(aggregate)),
            state=CharacterState.of(aggregate),
        )

    def mutate(self, _: Any) -> Any:
        return self.state.restore(resolved(self.topic, AGGREGATE), self.originator_id, self.originator_version)


def store(app: Any) -> Any:
    """The application's snapshot store. Built here rather than by the library's snapshotting switch,
    which would issue its CREATE statements in every process that opens the ledger (racing writers
    on PostgreSQL collide there); its table is created when the first snapshot is due."""
    found = app.__dict__.get("_chronicle_snapshots")
    if found is None:
        factory = app.factory
        postgres = type(factory).__module__.endswith("postgres")
        table = f"{factory.env.name.lower()}_snapshots" if postgres else "stored_snapshots"
        recorder = type(factory).aggregate_recorder_class(datastore=factory.datastore, events_table_name=table)
        found = app.__dict__["_chronicle_snapshots"] = EventStore(
            mapper=mapper_of(app).for_snapshots(), recorder=recorder
        )
    return found


def _exists(app: Any) -> bool:
    """Whether the snapshot table exists (asked, not tried: a failing query disturbs SQLite's WAL),
    asked once per process (a SQLite ledger's opening tells it): one made by another process since
    only costs this one's loads a longer fold."""
    known = app.__dict__.get("_chronicle_snapshots_exist")
    if known is not None:
        return bool(known)
    recorder = store(app).recorder
    table = recorder.events_table_name
    with recorder.datastore.transaction(commit=False) as cursor:
        if type(recorder).__module__.endswith("postgres"):
            cursor.execute("SELECT to_regclass(%s) AS found", (f"{recorder.datastore.schema}.{table}",))
            found = cursor.fetchone()["found"] is not None
        else:
            cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
            found = cursor.fetchone() is not None
    app.__dict__["_chronicle_snapshots_exist"] = found
    return found


def _newest(app: Any, ident: UUID, version: int | None) -> Any | None:
    if not _exists(app):
        return None
    found = list(store(app).get(ident, desc=True, limit=1, lte=version))
    return found[0] if found else None


def load(app: Any, ident: UUID, version: int | None = None) -> tuple[Any, int] | None:
    """The aggregate (at `version`, else now) from its newest snapshot and the events after it, and
    how many events were folded; None when it has no events (up to `version`)."""
    snapshot = _newest(app, ident, version)
    aggregate = snapshot.mutate(None) if snapshot is not None else None
    folded = 0
    for event in app.events.get(ident, gt=snapshot.originator_version if snapshot else None, lte=version):
        aggregate = event.mutate(aggregate)
        folded += 1
    return None if aggregate is None else (aggregate, folded)


def due(aggregate: Any, folded: int, saved: int) -> bool:
    """Snapshot a character once INTERVAL events lie past its newest snapshot (`folded` when it was
    loaded plus `saved` now): appending then folds at most INTERVAL events, however long the history."""
    return isinstance(aggregate, Character) and saved > 0 and folded + saved >= INTERVAL


def take(app: Any, aggregates: list[Any]) -> None:
    """Store snapshots of these (just saved) aggregates. Best effort, after the events' own transaction:
    a lost snapshot only costs the next load a longer fold, and must not turn a written event into a failure."""
    keep(app, [CharacterSnapshot.take(a) for a in aggregates])


def of_folded(states: Iterable[Any]) -> list[CharacterSnapshot]:
    """Snapshots of the characters among `states`, folded elsewhere (an import's check), that have INTERVAL
    events or more: their first load then folds none of that history."""
    return [CharacterSnapshot.take(s) for s in states if isinstance(s, Character) and s.version >= INTERVAL]


def keep(app: Any, snapshots: list[CharacterSnapshot]) -> None:
    """Store these snapshots, best effort (see `take`)."""
    if not snapshots:
        return
    try:
        if not _exists(app):
            store(app).recorder.create_table()
            app.__dict__["_chronicle_snapshots_exist"] = True
        store(app).put(snapshots)
    except Exception:  # noqa: BLE001 - e.g. a concurrent writer stored the same snapshot first
        return
