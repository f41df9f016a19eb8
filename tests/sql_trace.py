"""The SQL statements a ledger issues, for the tests that count them (a trace on every SQLite connection
the ledger opens while the patch holds)."""

from __future__ import annotations

from typing import Any

import pytest

from chronicle.ledger.store import sqlite as durable_sqlite


def trace_statements(monkeypatch: pytest.MonkeyPatch, into: list[str]) -> None:
    """Append to INTO every statement of each SQLite connection the ledger opens from now on."""
    create = durable_sqlite.DurablePool._create_connection

    def traced(pool: durable_sqlite.DurablePool) -> object:
        connection = create(pool)
        connection._sqlite_conn.set_trace_callback(into.append)
        return connection

    monkeypatch.setattr(durable_sqlite.DurablePool, "_create_connection", traced)


def trace_postgres(monkeypatch: pytest.MonkeyPatch, into: list[str]) -> None:
    """Append to INTO every statement sent to PostgreSQL from now on: psycopg's cursors (each row of an
    executemany, as the server sees them) and its own transaction commands (BEGIN, COMMIT, SAVEPOINT)."""
    import psycopg

    execute, executemany, copy = psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.Cursor.copy
    command = psycopg.Connection._exec_command

    def counted_command(self: Any, sent: Any, *args: Any, **kwargs: Any) -> Any:
        into.append(sent.decode() if isinstance(sent, bytes) else str(sent))
        return (yield from command(self, sent, *args, **kwargs))

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        into.append(query if isinstance(query, str) else query.as_string(self.connection))
        return execute(self, query, *args, **kwargs)

    def counted_many(self: Any, query: Any, params: Any, *args: Any, **kwargs: Any) -> Any:
        params = list(params)
        into.extend([str(query)] * len(params))
        return executemany(self, query, params, *args, **kwargs)

    def counted_copy(self: Any, statement: Any, *args: Any, **kwargs: Any) -> Any:
        into.append(str(statement))
        return copy(self, statement, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted_execute)
    monkeypatch.setattr(psycopg.Cursor, "executemany", counted_many)
    monkeypatch.setattr(psycopg.Cursor, "copy", counted_copy)
    monkeypatch.setattr(psycopg.Connection, "_exec_command", counted_command)
