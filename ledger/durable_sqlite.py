"""SQLite as the library sets it up (WAL for files), plus explicit durability on every connection.

WAL with `synchronous=FULL` syncs the write-ahead log at every commit, so a committed event
survives power loss, not just a killed process (NORMAL would only be safe against the latter).
Selected with `PERSISTENCE_MODULE=chronicle.ledger.durable_sqlite:DurableSQLiteFactory`.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteDatastore, SQLiteFactory

PRAGMAS = ("PRAGMA synchronous=FULL", "PRAGMA cache_size=-65536")


class DurablePool(SQLiteConnectionPool):
    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        for pragma in PRAGMAS:
            connection._sqlite_conn.execute(pragma)
        return connection


class DurableDatastore(SQLiteDatastore):
    def __init__(self, db_name: str, **options: Any):
        super().__init__(db_name, **options)
        self.pool.close()  # the library's pool (no connection made yet), replaced by ours
        self.pool = DurablePool(db_name=db_name, lock_timeout=options.get("lock_timeout"))


class DurableSQLiteFactory(SQLiteFactory):
    def __init__(self, env: Any):
        super().__init__(env)
        library = self.datastore
        self.datastore = DurableDatastore(
            library.pool.db_name, lock_timeout=library.pool.lock_timeout,
            single_row_tracking=library.single_row_tracking, originator_id_type=library.originator_id_type,
        )
        library.close()
