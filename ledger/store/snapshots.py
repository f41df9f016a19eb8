"""Snapshots of characters: the library's snapshotting with a typed pydantic state.

A snapshot's state is a `CharacterState` (domain/character_state.py): everything a Character
holds. A character is loaded from its newest snapshot and the events after it; the write side
never reads a read model's rows.

A snapshot is trusted only as far as it can be checked: it carries a seal over
its content and the hash of the event it folds up to (the state's `head_hash`); a load that finds
either not matching folds the character's events instead, and `verify` compares every snapshot
with the fold of the events it shortens (`SnapshotCheck`).
"""

import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import orjson
from eventsourcing.domain import CanSnapshotAggregate, OriginatorIDError, OriginatorVersionError
from eventsourcing.persistence import EventStore
from eventsourcing.utils import get_topic, register_topic

from ...domain.character import Character
from ...domain.character_state import CharacterState
from ...domain.errors import ChronicleError, DamagedLog
from ...domain.model import Model
from ...domain.text import printable
from ...projections.store import aggregate_id
from .mapper import AGGREGATE, LEGACY_SNAPSHOT_TOPIC, mapper_of, resolved

if TYPE_CHECKING:
    from .chronicle import Chronicle

INTERVAL = 100  # at most this many events are folded after the newest snapshot


class CharacterSnapshot(Model, CanSnapshotAggregate[UUID]):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    topic: str
    state: CharacterState
    seal: str = ""  # `sealed_over` its content when taken: an edit that keeps it is one made on purpose

    @classmethod
    def take(cls, aggregate: Any) -> "CharacterSnapshot":
        topic, state = get_topic(type(aggregate)), CharacterState.of(aggregate)
        return cls(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=cls.create_timestamp(),
            topic=topic,
            state=state,
            seal=sealed_over(aggregate.id, aggregate.version, topic, state),
        )

    def sealed(self) -> bool:
        return self.seal == sealed_over(self.originator_id, self.originator_version, self.topic, self.state)

    def mutate(self, _: Any) -> Any:
        return self.state.restore(resolved(self.topic, AGGREGATE), self.originator_id, self.originator_version)


# a snapshot stored before ledger/ had sub-packages names the class where it was defined then
register_topic(LEGACY_SNAPSHOT_TOPIC, CharacterSnapshot)


def sealed_over(ident: UUID, version: int, topic: str, state: CharacterState) -> str:
    """The sha256 of a snapshot's content (not its time): what its `seal` must be."""
    content = [str(ident), version, topic, state.model_dump(mode="json")]
    return hashlib.sha256(orjson.dumps(content, option=orjson.OPT_SORT_KEYS)).hexdigest()


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


UNREADABLE = (ChronicleError, ValueError)  # a snapshot that cannot be read: its topic, its JSON, its state


def _newest(app: Any, ident: UUID, version: int | None) -> Any | None:
    """The newest snapshot (at or before `version`), if it can be read and is sealed as it was taken."""
    if not _exists(app):
        return None
    try:
        found = list(store(app).get(ident, desc=True, limit=1, lte=version))
    except UNREADABLE:  # (reported by `verify`): the events are folded instead
        return None
    return found[0] if found and found[0].sealed() else None


def load(app: Any, ident: UUID, version: int | None = None) -> tuple[Any, int] | None:
    """The aggregate (at `version`, else now) from its newest snapshot and the events after it, and
    how many events were folded; None when it has no events (up to `version`). A snapshot is used only
    when the event at its version has the hash the snapshot says it folds up to: else every event."""
    snapshot = _newest(app, ident, version)
    if snapshot is not None:
        events = iter(app.events.get(ident, gt=snapshot.originator_version - 1, lte=version))
        last = next(events, None)
        if last is not None and (last.originator_version, last.hash) == (
            snapshot.originator_version,
            snapshot.state.head_hash,
        ):
            try:
                aggregate = snapshot.mutate(None)
            except UNREADABLE:
                aggregate = None
            if aggregate is not None:
                return _folded(aggregate, events)
    return _folded(None, iter(app.events.get(ident, lte=version)))


def _folded(aggregate: Any, events: Iterable[Any]) -> tuple[Any, int] | None:
    folded = 0
    for event in events:
        try:
            aggregate = event.mutate(aggregate)
        except (OriginatorVersionError, OriginatorIDError, AssertionError):  # a version missing, moved or foreign
            kind = "record" if aggregate is None else f"{getattr(aggregate, 'name', 'aggregate')}'s record"
            raise DamagedLog(
                f"the log no longer holds {kind} whole: its version {event.originator_version} follows version"
                f" {getattr(aggregate, 'version', 0)} (an event was removed or moved); nothing was written:"
                " `chronicle verify` names it"
            ) from None
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


class SnapshotCheck:
    """`verify`'s check of the stored snapshots of a share of the aggregates (ledger/trust/verify.py): each
    against the fold of the events it shortens, when the walk of the log reaches its version."""

    def __init__(self, app: "Chronicle", share: tuple[int, int]):
        self.app = app
        self.versions: dict[UUID, set[int]] = {}  # aggregate -> the versions it has snapshots at, not yet checked
        if not _exists(app):
            return
        k, n = share
        for stored_id, version in app.views.query(
            f"SELECT originator_id, originator_version FROM {store(app).recorder.events_table_name}"
        ):
            owner = aggregate_id(stored_id)
            if n == 1 or (owner.int & 0xF) % n == k:
                self.versions.setdefault(owner, set()).add(version)

    def problem(self, owner: UUID, version: int, character: Character) -> str | None:
        """What is wrong with the snapshot of `character` (folded to `version`) at `version`, if it has one."""
        at = self.versions.get(owner)
        if not at or version not in at:
            return None
        at.discard(version)
        whose = f"the snapshot of {printable(character.name)} at version {version}"
        try:
            (snapshot,) = store(self.app).get(owner, gt=version - 1, lte=version)
        except UNREADABLE as error:
            return f"{whose} cannot be read ({type(error).__name__}): writes fold the character's events instead"
        if not snapshot.sealed():
            return (
                f"{whose} was edited after it was taken (its seal differs): writes fold the character's events instead"
            )
        if (snapshot.topic, snapshot.state) != (get_topic(type(character)), CharacterState.of(character)):
            return (
                f"{whose} differs from the fold of the events before it (edited, and sealed again):"
                " `chronicle rebuild` removes the snapshots"
            )
        return None

    def beyond(self, versions: dict[UUID, int], names: dict[UUID, str]) -> list[dict[str, Any]]:
        """Snapshots of the campaign's characters (`names`) at versions their logs (`versions`) lack."""
        return [
            {
                "position": 0,
                "problem": f"the snapshot of {printable(names[owner])} at version {version} is beyond its"
                f" log, which ends at version {versions.get(owner, 0)}: writes fold the character's events instead",
            }
            for owner, left in self.versions.items()
            if owner in names
            for version in sorted(left)
        ]


def clear(app: "Chronicle") -> None:
    """Remove every snapshot (`rebuild`): the next load of a character folds its events, and snapshots it again."""
    if _exists(app):
        with store(app).recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DELETE FROM {store(app).recorder.events_table_name}")
