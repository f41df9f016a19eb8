"""The few private names of the eventsourcing library that chronicle's store relies on.

pyproject.toml admits any 9.5.x release; a release that renames or drops one of these fails here, by
name, before any other test fails in a stranger way."""

from __future__ import annotations

import pytest
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnection, SQLiteConnectionPool, SQLiteDatastore

# (owner, private name, what the store does with it)
USED = [
    (SQLiteConnectionPool, "_create_connection", "sets the file's pragmas on each new connection"),
    (SQLiteApplicationRecorder, "_insert_events", "checks the log's seal before the library inserts"),
    (PostgresApplicationRecorder, "_insert_stored_events", "locks, notifies and inserts a batch in one statement"),
]


@pytest.mark.parametrize(("owner", "name", "why"), USED, ids=[f"{owner.__name__}.{name}" for owner, name, _ in USED])
def test_each_private_method_the_store_overrides_is_still_there(owner: type, name: str, why: str) -> None:
    assert callable(getattr(owner, name, None)), f"eventsourcing no longer has {owner.__name__}.{name} ({why})"


def test_a_sqlite_datastore_still_has_a_replaceable_pool_of_connections_around_raw_sqlite3(tmp_path) -> None:
    datastore = SQLiteDatastore(str(tmp_path / "probe.db"))
    try:
        assert isinstance(datastore.pool, SQLiteConnectionPool)
        with datastore.get_connection(commit=False) as connection:
            assert isinstance(connection, SQLiteConnection)
            assert tuple(connection._sqlite_conn.execute("SELECT 1").fetchone()) == (1,)
    finally:
        datastore.close()
