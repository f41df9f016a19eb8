"""SQLite page caches: 16 MB a connection for the commands that run and end (bulk inserts stay in memory),
SQLite's own 2 MB for a process that stays up (`serve`, `shell`, `mcp`), whose several connections would
otherwise each fill 16 MB as the ledger grows."""

from __future__ import annotations

import pytest

from chronicle.ledger.store import sqlite as durable_sqlite
from chronicle.ledger.store.chronicle import open_ledger


def _cache_sizes(path: str) -> set[int]:
    app = open_ledger(path)
    try:
        return {row[0] for row in app.views.query("PRAGMA cache_size")}
    finally:
        app.close()


def test_a_command_keeps_16_mb_and_a_process_that_stays_up_2_mb(sqlite_db):
    # (conftest's bulk_page_cache gives each test the commands' cache, and puts it back after)
    assert _cache_sizes(sqlite_db) == {-16384}
    durable_sqlite.staying_up()
    assert _cache_sizes(sqlite_db) == {-2048}


@pytest.mark.parametrize("args", [["shell"], ["serve", "--port", "0"], ["mcp"]])
def test_the_front_doors_that_stay_up_ask_for_small_caches(args, sqlite_db, monkeypatch):
    """Each calls `staying_up` before it opens the ledger (here stopped right there)."""
    from click.testing import CliRunner

    from chronicle.cli.main import chronicle

    open_ledger(sqlite_db).close()
    called: list[bool] = []

    class Stop(Exception):
        pass

    def staying_up() -> None:
        called.append(True)
        raise Stop

    for module in ("chronicle.cli.serve", "chronicle.cli.shell", "chronicle.ledger.application.connections"):
        monkeypatch.setattr(f"{module}.staying_up", staying_up, raising=False)
    result = CliRunner().invoke(chronicle, ["--db", sqlite_db, *args])  # (stopped: its exit status is moot)
    assert called, result.output
