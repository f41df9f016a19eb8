"""`rebuild` under other writers: it retries a lost race like any command, rebuilds
running at once each fill tables of their own, and a rebuild that fails leaves no fresh tables behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from chronicle.projections import rebuild as fresh

from .processes import PROGRAM

APPENDER = Path(__file__).with_name("appender.py")


def tables(run) -> list[str]:
    from chronicle.ledger.store.chronicle import open_ledger

    app = open_ledger(run.db)
    try:
        with app.views.transaction(commit=False) as cursor:
            if app.views.postgres:
                cursor.execute("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()")
                return sorted(row["name"] for row in cursor.fetchall())
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            return sorted(row[0] for row in cursor.fetchall())
    finally:
        app.close()


def test_a_failed_rebuild_leaves_no_rebuilt_tables_and_the_old_read_models(run, monkeypatch):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    before = run.json("character", "list")

    def broken(*args, **kwargs):
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(fresh, "swap", broken)
    failed = run("rebuild", "--workers", "1")
    assert failed.exit_code == 2
    assert not [name for name in tables(run) if "_rebuilt" in name]
    monkeypatch.undo()
    assert run.json("character", "list") == before


def test_rebuilds_and_appenders_at_once_all_succeed(run_sqlite):
    run = run_sqlite
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    appenders = [
        subprocess.Popen(
            [sys.executable, str(APPENDER), run.db, "Bruno", "30"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    rebuilds = [
        subprocess.Popen(
            [*PROGRAM, "--db", run.db, "--json", "rebuild", "--workers", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for process in appenders + rebuilds:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        assert '"messages": [' not in out or '"messages": []' in out, out
    assert not [name for name in tables(run) if "_rebuilt" in name]
    assert run.json("character", "show", "Bruno")["version"] == 61
    kept_up = run.json("log", "Bruno")
    assert run("rebuild").exit_code == 0
    assert run.json("log", "Bruno") == kept_up
