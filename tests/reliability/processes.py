"""Helpers for tests that run `chronicle` as real processes and look at the stored log directly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from chronicle.ledger.app import open_ledger
from chronicle.ledger.storage import is_postgres

PROGRAM = [sys.executable, "-c", "from chronicle.cli.main import main; main()"]


def start(db: str, *args: str, **kwargs: Any) -> subprocess.Popen:
    return subprocess.Popen([*PROGRAM, "--db", db, "--by", "gm", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kwargs)


def stored_log(db: str) -> list[tuple[Any, ...]]:
    """Every stored event row, in log order, bytes and all."""
    app = open_ledger(db)
    try:
        return [(n.id, n.originator_id, n.originator_version, n.topic, bytes(n.state))
                for n in app.recorder.select_notifications(start=1, limit=10**9)]
    finally:
        app.close()


def writing(db: str) -> Callable[[], bool]:
    """A probe that turns true once another process is inside its write transaction: SQLite's
    write-ahead log has grown by uncommitted pages, or PostgreSQL shows an active insert."""
    if is_postgres(db):
        import psycopg

        connection = psycopg.connect(db, autocommit=True)
        name = db.rsplit("/", 1)[1]

        def active_insert() -> bool:
            row = connection.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND state = 'active'"
                " AND pid <> pg_backend_pid() AND query ILIKE %s", (name, "%insert%")).fetchone()
            return row[0] > 0

        return active_insert
    wal = db + "-wal"
    base = os.path.getsize(wal) if os.path.exists(wal) else 0
    return lambda: (os.path.getsize(wal) if os.path.exists(wal) else 0) > base + 100_000


def reading(process: subprocess.Popen, path: str) -> Callable[[], bool]:
    """A probe that turns true once the process has read part of the file at `path` (its file
    position, from /proc): it is then still reading, long before it could commit anything."""
    target = os.path.realpath(path)

    def started() -> bool:
        try:
            for fd in os.listdir(f"/proc/{process.pid}/fd"):
                if os.path.realpath(f"/proc/{process.pid}/fd/{fd}") == target:
                    with open(f"/proc/{process.pid}/fdinfo/{fd}") as info:
                        return int(info.readline().split()[1]) > 0
        except (FileNotFoundError, ProcessLookupError):
            pass
        return False

    return started


def kill_when(process: subprocess.Popen, ready: Callable[[], bool], timeout: float = 300) -> bool:
    """SIGKILL the process as soon as `ready()`; True when it was still running then."""
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        if ready():
            process.send_signal(signal.SIGKILL)
            process.wait()
            return process.returncode == -signal.SIGKILL
        time.sleep(0.002)
    process.kill()
    process.wait()
    return False
