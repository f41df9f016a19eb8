"""SQLite as the library sets it up (WAL for files), plus explicit durability on every connection
and a larger page for a new ledger.

WAL with `synchronous=FULL` syncs the write-ahead log at every commit, so a committed event
survives power loss, not just a killed process (NORMAL would only be safe against the latter).
Selected with `PERSISTENCE_MODULE=chronicle.ledger.store.sqlite:DurableSQLiteFactory`;
`SQLITE_SYNCHRONOUS=NORMAL` serves writes that a later synced commit makes count (a rebuild's
workers filling fresh tables).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventsourcing import persistence
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteDatastore,
    SQLiteFactory,
)

from .sealing import SealedRecorder
from .targets import APPLICATION_ID

BULK_CACHE = "PRAGMA cache_size=-16384"  # 16 MB of pages (SQLite's default is 2 MB): bulk inserts into the events'
# primary-key index, in the order of the log rather than of the key, then stay in memory
# A process that stays up (`serve`, `shell`, `mcp`) keeps SQLite's own 2 MB a connection (`staying_up`): it
# holds several connections, each of whose caches would fill to 16 MB as the ledger grows (a server's
# memory grew 1.35x from its 1,000th write to its 100,000th), and a write reads a few pages (its CPU time
# was the same with either cache, 4.0 ms a write in-process).
STAYING_UP_CACHE = "PRAGMA cache_size=-2048"
CACHE = BULK_CACHE  # what the connections this process opens from now on get


def staying_up() -> None:
    """Give the connections this process opens from now on SQLite's own page cache (see BULK_CACHE)."""
    global CACHE
    CACHE = STAYING_UP_CACHE


# 16 KB pages for a new ledger (SQLite's default is 4 KB; only a database's first write sets it). An
# event takes some 700 bytes: bigger pages make the events' primary-key index shallower and copy a
# quarter as many pages through the write-ahead log, which is where a bulk import and its checkpoint
# spend their time (reads and single appends neither gain nor lose by it).
PAGE_SIZE = "PRAGMA page_size=16384"


class DurablePool(SQLiteConnectionPool):
    def __init__(self, synchronous: str = "FULL", **options: Any):
        super().__init__(**options)
        self.pragmas = (f"PRAGMA synchronous={synchronous}", CACHE)

    def _create_connection(self) -> SQLiteConnection:
        if not self.is_sqlite_memory_mode and _is_new(self.db_name):
            _create(self.db_name)
        connection = super()._create_connection()
        for pragma in self.pragmas:
            connection._sqlite_conn.execute(pragma)
        return connection


class DurableDatastore(SQLiteDatastore):
    def __init__(self, db_name: str, synchronous: str = "FULL", **options: Any):
        super().__init__(db_name, **options)
        self.pool.close()  # the library's pool (no connection made yet), replaced by ours
        self.pool = DurablePool(synchronous, db_name=db_name, lock_timeout=options.get("lock_timeout"))
        self._unit = threading.local()  # the open unit's connection, per thread (`serve` answers in threads)

    @contextmanager
    def unit(self, immediate: bool = False, lock: object = None) -> Iterator[None]:
        """One transaction for everything done inside it on this thread: every transaction the
        library's recorders and the read models open in it joins it instead of beginning its own,
        so a command's reads, its events and the read models' catching up are one transaction, all
        or nothing. Its reads are one snapshot: if another process writes after them, this one's
        first write fails as busy (the application layer's lost race: re-read and re-decide), so
        nothing is decided on what is no longer so; after its first write it holds the write lock
        (others wait for it as for any writer). `immediate` takes the write lock first (`BEGIN
        IMMEDIATE`, waited for as any write waits): what a writer that keeps losing does, so it
        cannot lose again. Nested units join the outer one. (`lock` is PostgreSQL's: SQLite has one lock.)"""
        if getattr(self._unit, "connection", None) is not None:
            yield
            return
        with self.get_connection(commit=True) as connection:
            raw = connection._sqlite_conn
            with _library_errors():
                raw.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
            self._unit.connection = raw
            try:
                yield
            except BaseException:
                self._unit.connection = None
                if raw.in_transaction:
                    raw.rollback()
                raise
            self._unit.connection = None
            with _library_errors():
                try:
                    raw.commit()
                except sqlite3.Error:
                    if raw.in_transaction:
                        raw.rollback()
                    raise

    @property
    def in_unit(self) -> bool:
        return getattr(self._unit, "connection", None) is not None

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[Any]:
        raw = getattr(self._unit, "connection", None)
        if raw is None:
            with super().transaction(commit=commit) as cursor:
                yield cursor
            return
        cursor = raw.cursor()
        try:
            with _library_errors():
                yield cursor
        finally:
            cursor.close()


class SealedSQLiteRecorder(SealedRecorder, SQLiteApplicationRecorder):
    """The library's recorder, checking in each insert's transaction that this process can read the
    ledger's first event (ledger/store/sealing.py)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first_event_sql = f"SELECT state FROM {self.events_table_name} ORDER BY rowid LIMIT 1"

    def _insert_events(self, c: Any, stored_events: Any, **kwargs: Any) -> Any:
        self.check_sealing(c)
        return super()._insert_events(c, stored_events, **kwargs)


class DurableSQLiteFactory(SQLiteFactory):
    application_recorder_class = SealedSQLiteRecorder

    def __init__(self, env: Any):
        super().__init__(env)
        library = self.datastore
        self.datastore = DurableDatastore(
            library.pool.db_name,
            env.get("SQLITE_SYNCHRONOUS", "FULL"),
            lock_timeout=library.pool.lock_timeout,
            single_row_tracking=library.single_row_tracking,
            originator_id_type=library.originator_id_type,
        )
        library.close()


# sqlite3's errors as the library's own (what its transactions raise, and `lost_race` knows)
_ERRORS = (
    (sqlite3.IntegrityError, persistence.IntegrityError),
    (sqlite3.OperationalError, persistence.OperationalError),
    (sqlite3.InterfaceError, persistence.InterfaceError),
    (sqlite3.DataError, persistence.DataError),
    (sqlite3.InternalError, persistence.InternalError),
    (sqlite3.ProgrammingError, persistence.ProgrammingError),
    (sqlite3.NotSupportedError, persistence.NotSupportedError),
    (sqlite3.DatabaseError, persistence.DatabaseError),
    (sqlite3.Error, persistence.PersistenceError),
)


@contextmanager
def _library_errors() -> Iterator[None]:
    try:
        yield
    except sqlite3.Error as error:
        for theirs, ours in _ERRORS:
            if isinstance(error, theirs):
                raise ours(error) from error
        raise


def _is_new(db_name: str) -> bool:
    try:
        return os.path.getsize(db_name) == 0
    except FileNotFoundError:
        return True


def _create(db_name: str, patience: float = 30.0) -> None:
    """The ledger's file, with its page size set before the library's first connection puts it in WAL mode.
    Processes that open a new file at once all come here; SQLite answers some statements that meet another
    connection changing the file's journal mode with "locked" at once, without waiting, so each waits its turn."""
    connection = sqlite3.connect(db_name, uri=True, isolation_level=None, timeout=patience)  # read as the library does
    deadline = time.monotonic() + patience
    try:
        for statement in (PAGE_SIZE, f"PRAGMA application_id={APPLICATION_ID}", "PRAGMA journal_mode=WAL"):
            while True:  # (application_id marks a chronicle ledger: ledger/store/targets.py)
                try:
                    connection.execute(statement)
                    break
                except sqlite3.OperationalError as error:
                    if "locked" not in str(error) or time.monotonic() > deadline:
                        raise
                    time.sleep(0.005)
    finally:
        connection.close()
