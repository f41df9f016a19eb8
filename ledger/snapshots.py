"""Snapshots of characters: the library's snapshotting with a typed pydantic state.

A `CharacterState` is everything a Character holds (its sheet and condition as the JSON their
system's models read back), so the same model serves the snapshot store and the `characters`
read model. `head_hash` travels with it: the hash chain continues after a snapshot.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import CanSnapshotAggregate
from eventsourcing.utils import get_topic, resolve_topic

from ..domain import systems
from ..domain.model import Model

INTERVAL = 100  # at most this many events are folded after the newest snapshot


class CharacterState(Model):
    created_on: datetime
    modified_on: datetime
    campaign_id: UUID
    name: str
    system: str
    kind: str
    sheet: dict[str, Any]
    condition: dict[str, Any]
    head_hash: str

    @classmethod
    def of(cls, character: Any) -> CharacterState:
        return cls(created_on=character.created_on, modified_on=character.modified_on,
                   campaign_id=character.campaign_id, name=character.name, system=character.system,
                   kind=character.kind, sheet=character.sheet.model_dump(mode="json"),
                   condition=character.condition.model_dump(mode="json"), head_hash=character.head_hash)

    def restore(self, cls: type, ident: UUID, version: int) -> Any:
        """The Character this state describes, at `version`, as if folded from its events."""
        rules = systems.get(self.system)
        character = object.__new__(cls)
        character.__dict__.update({
            "_id": ident, "_version": version, "_created_on": self.created_on, "_modified_on": self.modified_on,
            "_pending_events": [], "campaign_id": self.campaign_id, "name": self.name, "system": self.system,
            "kind": self.kind, "sheet": rules.Sheet.model_validate(self.sheet),
            "condition": rules.Condition.model_validate(self.condition), "head_hash": self.head_hash,
        })
        return character


class CharacterSnapshot(Model, CanSnapshotAggregate[UUID]):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    topic: str
    state: CharacterState

    @classmethod
    def take(cls, aggregate: Any) -> CharacterSnapshot:  # type: ignore[override]
        return cls(originator_id=aggregate.id, originator_version=aggregate.version,
                   timestamp=cls.create_timestamp(), topic=get_topic(type(aggregate)),
                   state=CharacterState.of(aggregate))

    def mutate(self, _: Any) -> Any:  # type: ignore[override]
        return self.state.restore(resolve_topic(self.topic), self.originator_id, self.originator_version)


def store(app: Any) -> Any:
    """The application's snapshot store. Built here rather than by the library's snapshotting switch,
    which would issue its CREATE statements in every process that opens the ledger (racing writers
    on PostgreSQL collide there); its table is created when the first snapshot is due."""
    found = app.__dict__.get("_chronicle_snapshots")
    if found is None:
        from eventsourcing.persistence import EventStore

        factory = app.factory
        postgres = type(factory).__module__.endswith("postgres")
        table = f"{factory.env.name.lower()}_snapshots" if postgres else "stored_snapshots"
        recorder = type(factory).aggregate_recorder_class(datastore=factory.datastore, events_table_name=table)
        found = app.__dict__["_chronicle_snapshots"] = EventStore(mapper=app.mapper, recorder=recorder)
    return found


def _exists(app: Any) -> bool:
    """Whether the snapshot table exists (asked, not tried: a failing query disturbs SQLite's WAL)."""
    if app.__dict__.get("_chronicle_snapshots_exist"):
        return True
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


ROWS = "chronicle_character_rows"  # the characters read model (projections/characters.py)


def _row(app: Any, ident: UUID) -> Any | None:
    """The character as its read-model row holds it (the same `CharacterState` as a snapshot, folded by
    the events' own `mutate` up to the row's version), if the row exists; the events after that
    version are folded on top by `load`, so a row behind the log is still exact."""
    recorder = store(app).recorder
    postgres = type(recorder).__module__.endswith("postgres")
    exists = app.__dict__.get("_chronicle_rows_exist")
    with recorder.datastore.transaction(commit=False) as cursor:
        if not exists:  # asked, not created: a writer must not issue DDL (racing writers on PostgreSQL)
            if postgres:
                cursor.execute("SELECT to_regclass(%s) AS found", (f"{recorder.datastore.schema}.{ROWS}",))
                exists = cursor.fetchone()["found"] is not None
            else:
                cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (ROWS,))
                exists = cursor.fetchone() is not None
            if not exists:
                return None
            app.__dict__["_chronicle_rows_exist"] = True
        marker = "%s" if postgres else "?"
        cursor.execute(f"SELECT version, state FROM {ROWS} WHERE id = {marker}", (str(ident),))
        found = cursor.fetchone()
    if found is None:
        return None
    row_version, state = (found["version"], found["state"]) if isinstance(found, dict) else tuple(found)
    from ..domain.character import Character

    return CharacterState.model_validate_json(state).restore(Character, ident, row_version)


def load(app: Any, ident: UUID, version: int | None = None) -> tuple[Any, int] | None:
    """The aggregate (at `version`, else now) from its newest snapshot (now: or its read-model row) and
    the events after it, and how many events were folded; None when it has no events (up to `version`)."""
    if version is None:
        row = _row(app, ident)
        if row is not None:
            pending = list(app.events.get(ident, gt=row.version))
            if len(pending) <= INTERVAL:  # else the row lags far behind: a snapshot may be nearer
                for event in pending:
                    row = event.mutate(row)
                return row, len(pending)
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
    from ..domain.character import Character

    return isinstance(aggregate, Character) and saved > 0 and folded + saved >= INTERVAL


def take(app: Any, aggregates: list[Any]) -> None:
    """Store snapshots of these (just saved) aggregates. Best effort, after the events' own transaction:
    a lost snapshot only costs the next load a longer fold, and must not turn a written event into a failure."""
    if not aggregates:
        return
    try:
        if not _exists(app):
            store(app).recorder.create_table()
            app.__dict__["_chronicle_snapshots_exist"] = True
        store(app).put([CharacterSnapshot.take(a) for a in aggregates])
    except Exception:  # noqa: BLE001 - e.g. a concurrent writer stored the same snapshot first
        return
