"""Helpers for tests that run `chronicle` as real processes and look at the stored log directly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.store.targets import is_postgres

PROGRAM = [sys.executable, "-c", "from chronicle.cli.main import main; main()"]


def start(db: str, *args: str, **kwargs: Any) -> subprocess.Popen:
    return subprocess.Popen(
        [*PROGRAM, "--db", db, "--by", "gm", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs
    )


def stored_log(db: str) -> list[tuple[Any, ...]]:
    """Every stored event row, in log order, bytes and all."""
    app = open_ledger(db)
    try:
        return [
            (n.id, n.originator_id, n.originator_version, n.topic, bytes(n.state))
            for n in app.recorder.select_notifications(start=1, limit=10**9)
        ]
    finally:
        app.close()


def writing(db: str) -> Callable[[], bool]:
    """A probe that turns true while another process is inside its write transaction: it holds
    SQLite's write lock, or PostgreSQL shows an active insert."""
    if is_postgres(db):
        import psycopg

        connection = psycopg.connect(db, autocommit=True)
        name = db.rsplit("/", 1)[1]
        # sessions that exist already (a killed client's may still be finishing) are not the writer
        earlier = [
            row[0]
            for row in connection.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,)).fetchall()
        ]

        def active_insert() -> bool:
            row = connection.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND state = 'active'"
                " AND pid <> ALL(%s) AND query ILIKE %s",
                (name, earlier, "%insert%"),
            ).fetchone()
            assert row is not None  # (a count has its row)
            return row[0] > 0

        return active_insert
    import sqlite3

    probe = sqlite3.connect(db, timeout=0, isolation_level=None)

    def write_locked() -> bool:
        """SQLite lets one writer in at a time: another process holds the write lock while its
        transaction is open (and only then), so ours cannot begin one."""
        try:
            probe.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return True
        probe.execute("ROLLBACK")
        return False

    return write_locked


def reading(process: subprocess.Popen, path: str) -> Callable[[], bool]:
    """A probe that turns true once the process, or one of its workers, has read part of the file
    at `path` (a file position, from /proc): it is then still reading, long before it could
    commit anything."""
    target = os.path.realpath(path)

    def position(pid: int | str) -> int:
        """How far the process has read the file, on the furthest of the descriptors it has it open on."""
        furthest = 0
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.path.realpath(f"/proc/{pid}/fd/{fd}") == target:
                    with open(f"/proc/{pid}/fdinfo/{fd}") as info:
                        furthest = max(furthest, int(info.readline().split()[1]))
        except (FileNotFoundError, ProcessLookupError):
            pass
        return furthest

    def started() -> bool:
        pids: list[int | str] = [process.pid, *children(process.pid)]
        return any(position(pid) > 0 for pid in pids)

    return started


def children(pid: int) -> list[str]:
    """The processes whose parent is `pid` (from each /proc/N/stat: its 4th field, after the name)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[1] == str(pid):
                        found.append(entry)
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
    return found


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


def ended(pids: list[str], timeout: float = 20) -> bool:
    """Whether these processes all end (or are only left for their parent to reap) within `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_running(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _running(pid: str) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):
        return False
