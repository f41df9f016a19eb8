"""PostgreSQL as the library sets it up, with its events' sealing checked by every writer (ledger/store/sealing.py)
and units of work as on SQLite (ledger/store/sqlite.py): a command's reads, its events and the read
models' catching up are one transaction, all or nothing.

Selected with `PERSISTENCE_MODULE=chronicle.ledger.store.postgres:UnitPostgresFactory`.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing import persistence
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)

from .sealing import SealedRecorder


class SealedPostgresRecorder(SealedRecorder, PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first_event_sql = (
            f"SELECT state FROM {self.events_table_name} "  # noqa: S608 - the library's own name
            "ORDER BY notification_id LIMIT 1"
        )

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Inside a unit, in the unit's transaction, with the errors they meet raised as they are: the
        library's own (a pipeline that keeps the first error to raise it later) would raise "current
        transaction is aborted" instead of the IntegrityError that says a race was lost."""
        if not getattr(self.datastore, "in_unit", False):
            return super().insert_events(stored_events, **kwargs)
        if not stored_events:
            return []
        with self.datastore.transaction(commit=True) as cursor:
            self._insert_stored_events(cursor, stored_events, **kwargs)
            return [row["notification_id"] for row in cursor.fetchall()]

    def lock_events(self) -> None:
        """Take the events table's lock in the open unit, as the first insert would (ledger/store/chronicle.py's
        unit)."""
        with self.datastore.transaction(commit=True) as cursor:
            for statement in self.lock_table_statements:
                cursor.execute(statement)

    def _insert_stored_events(self, curs: Any, stored_events: Any, **kwargs: Any) -> None:
        """Inside a unit, the events table's lock is the unit's own, taken first (`lock_events`), and no
        NOTIFY is sent on the library's channel: no one listens there (pages are woken by chronicle's own
        trigger, ledger/store/appends.py). Outside one, as the library's, with the sealing checked first."""
        if getattr(self.datastore, "in_unit", False):
            self.check_sealing(curs)
            PostgresAggregateRecorder._insert_stored_events(self, curs, stored_events, **kwargs)
            return
        self._lock_table(curs)  # first, so no other writer's first event can slip in after the check
        self.check_sealing(curs)
        super()._insert_stored_events(curs, stored_events, **kwargs)


class UnitDatastore(PostgresDatastore):
    """The library's datastore, where every connection asked for inside a unit, on the unit's thread,
    is the unit's own, each use of it a part of the unit's one transaction: a part that fails (a read
    model that lost a race to another process) fails the unit, which is rolled back whole and tried
    again. Without a unit, each transaction is its own, as the library's."""

    _units: threading.local

    @contextmanager
    def unit(self, immediate: bool = False, lock: Callable[[], None] | None = None) -> Iterator[None]:
        """One transaction for everything done inside it on this thread; nested units join the outer
        one. `lock()` takes the events table's lock first, whatever `immediate` says: a unit reads,
        decides, writes and folds the read models holding it. Writers then wait for one another before
        they touch anything, as on SQLite: one that had folded others' events into the read models
        before it inserted its own waited for the events table holding their rows, while the writer
        holding the table waited for those rows: a deadlock."""
        if self.in_unit:
            yield
            return
        with super().get_connection() as connection, connection.transaction():
            self._units.connection = connection
            self._units.serial = next(_SERIALS)
            try:
                if lock is not None:
                    lock()
                yield
            finally:
                self._units.connection = None

    @property
    def in_unit(self) -> bool:
        return getattr(self._units, "connection", None) is not None

    def unit_key(self) -> int | None:
        """Which unit is open on this thread (None: none): what a read of this unit may be remembered by.
        A unit holds the events table's lock from its start, so no other writer moves what it read."""
        if not self.in_unit:
            return None
        return self._units.serial

    @contextmanager
    def get_connection(self) -> Iterator[Any]:
        with self._savepoint(commit=True) as held:
            if held is None:
                with super().get_connection() as connection:
                    yield connection
            else:
                yield held

    @contextmanager
    def transaction(self, *, commit: bool = False) -> Iterator[Any]:
        with self._savepoint(commit) as held:
            if held is None:  # a read's too is committed: psycopg follows a rollback with DEALLOCATE ALL, which
                # drops every statement it had prepared on the connection (they are parsed again), one more round trip
                with super().transaction(commit=True) as cursor:
                    yield cursor
            else:
                yield held.cursor()

    @contextmanager
    def _savepoint(self, commit: bool) -> Iterator[Any]:
        """The unit's connection, with psycopg's errors raised as the library's; None outside a unit.
        Everything runs in the unit's one transaction, without a savepoint of its own (each was two round
        trips): a part that fails fails the whole unit, which is rolled back, and a lost race (a read
        model another process moved on meanwhile) is the command's, tried again whole (docs/scale.md)."""
        held = getattr(self._units, "connection", None)
        if held is None:
            yield None
            return
        try:
            yield held
        except psycopg.Error as error:
            raise _library_error(error) from error


_SERIALS = itertools.count(1)  # every unit's own number, whatever its thread


class UnitPostgresFactory(PostgresFactory):
    application_recorder_class = SealedPostgresRecorder

    def __init__(self, env: Any):
        super().__init__(env)
        # The datastore the library made (its pool not yet open) becomes a UnitDatastore: it adds methods only.
        self.datastore.__class__ = UnitDatastore
        self.datastore._units = threading.local()  # type: ignore[attr-defined]


# psycopg's errors as the library's own connections raise them (what `lost_race` and the read models know)
_ERRORS = (
    (psycopg.InterfaceError, persistence.InterfaceError),
    (psycopg.OperationalError, persistence.OperationalError),
    (psycopg.DataError, persistence.DataError),
    (psycopg.IntegrityError, persistence.IntegrityError),
    (psycopg.InternalError, persistence.InternalError),
    (psycopg.ProgrammingError, persistence.ProgrammingError),
    (psycopg.NotSupportedError, persistence.NotSupportedError),
    (psycopg.DatabaseError, persistence.DatabaseError),
)


def _library_error(error: psycopg.Error) -> persistence.PersistenceError:
    for theirs, ours in _ERRORS:
        if isinstance(error, theirs):
            return ours(str(error))
    return persistence.PersistenceError(str(error))
