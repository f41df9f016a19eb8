"""SQLite as the library sets it up (WAL for files), plus explicit durability on every connection.

WAL with `synchronous=FULL` syncs the write-ahead log at every commit, so a committed event
survives power loss, not just a killed process (NORMAL would only be safe against the latter).
Selected with `PERSISTENCE_MODULE=chronicle.ledger.durable_sqlite:DurableSQLiteFactory`;
`SQLITE_SYNCHRONOUS=NORMAL` serves writes that a later synced commit makes count (a rebuild's
workers filling fresh tables).
"""

from __future__ import annotations

from typing import Any

from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteDatastore, SQLiteFactory

CACHE = "PRAGMA cache_size=-16384"  # 16 MB of pages (SQLite's default is 2 MB): bulk inserts into the events'
# primary-key index, in the order of the log rather than of the key, then stay in memory


class DurablePool(SQLiteConnectionPool):
    def __init__(self, synchronous: str = "FULL", **options: Any):
        super().__init__(**options)
        self.pragmas = (f"PRAGMA synchronous={synchronous}", CACHE)

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        for pragma in self.pragmas:
            connection._sqlite_conn.execute(pragma)
        return connection


class DurableDatastore(SQLiteDatastore):
    def __init__(self, db_name: str, synchronous: str = "FULL", **options: Any):
        super().__init__(db_name, **options)
        self.pool.close()  # the library's pool (no connection made yet), replaced by ours
        self.pool = DurablePool(synchronous, db_name=db_name, lock_timeout=options.get("lock_timeout"))


class DurableSQLiteFactory(SQLiteFactory):
    def __init__(self, env: Any):
        super().__init__(env)
        library = self.datastore
        self.datastore = DurableDatastore(
            library.pool.db_name, env.get("SQLITE_SYNCHRONOUS", "FULL"), lock_timeout=library.pool.lock_timeout,
            single_row_tracking=library.single_row_tracking, originator_id_type=library.originator_id_type,
        )
        library.close()
