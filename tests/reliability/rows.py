"""Plain SQL on the stored events, as an attacker (or a careless admin) would use it."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable

from chronicle.ledger.store.targets import is_postgres


def _postgres(db: str):
    import psycopg

    return psycopg.connect(db, autocommit=True)


def state_at(db: str, position: int) -> bytes:
    if is_postgres(db):
        with _postgres(db) as connection:
            return bytes(
                connection.execute(
                    "SELECT state FROM chronicle_events WHERE notification_id = %s", (position,)
                ).fetchone()[0]
            )
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT state FROM stored_events WHERE rowid = ?", (position,)).fetchone()[0]


def all_states(db: str) -> list[bytes]:
    if is_postgres(db):
        with _postgres(db) as connection:
            return [
                bytes(r[0]) for r in connection.execute("SELECT state FROM chronicle_events ORDER BY notification_id")
            ]
    if not os.path.exists(db):  # a write that failed in an empty folder made no database
        return []
    with sqlite3.connect(db) as connection:
        return [r[0] for r in connection.execute("SELECT state FROM stored_events ORDER BY rowid")]


def edit(db: str, position: int, change: Callable[[bytes], bytes]) -> None:
    state = change(state_at(db, position))
    if is_postgres(db):
        with _postgres(db) as connection:
            connection.execute("UPDATE chronicle_events SET state = %s WHERE notification_id = %s", (state, position))
        return
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (state, position))


def delete(db: str, position: int) -> None:
    if is_postgres(db):
        with _postgres(db) as connection:
            connection.execute("DELETE FROM chronicle_events WHERE notification_id = %s", (position,))
        return
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM stored_events WHERE rowid = ?", (position,))
