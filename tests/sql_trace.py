"""The SQL statements a ledger issues, for the tests that count them (a trace on every SQLite connection
the ledger opens while the patch holds)."""

from __future__ import annotations

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
