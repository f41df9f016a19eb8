"""Nothing creates a database but a write that succeeds: a SQLite file that did not exist when a command
started, and holds no event when it ends (a write that failed in an empty folder, an import that refused
its file), is removed then. At its end, not when a ledger closes: a command may open and close
the ledger several times (`import`, `rebuild`), keeping its tables from one opening to the next."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING
from urllib.parse import quote

from ...domain.errors import BadInput
from .targets import is_postgres, sqlite_path

if TYPE_CHECKING:
    import sqlite3


def absent(target: str) -> bool:
    """Whether TARGET names a SQLite file that does not exist yet: opening the ledger would make it."""
    if not target or is_postgres(target):
        return False
    try:
        return not os.path.lexists(sqlite_path(target))
    except BadInput:  # a malformed `file:` target: opening it is refused, and makes nothing
        return False


def discard_unwritten(target: str) -> None:
    """Remove the SQLite file at TARGET, made by this command, unless it holds an event or another
    connection (of any process) has it open. Never raises: at worst the file stays.

    Alone is told by SQLite itself: a WAL database leaves WAL mode only for its one open connection
    (every other holds a lock that stops it). Then an exclusive lock keeps anyone from reading it
    until it is gone; a process that opens it in the instant before still finds an empty file."""
    import sqlite3  # (lazily: every command's start asks `absent`)

    try:
        target = sqlite_path(target)  # (a `file:` target: the file it names)
    except BadInput:
        return

    try:
        connection = sqlite3.connect(
            f"file:{quote(os.path.abspath(target))}?mode=rw", uri=True, timeout=0, isolation_level=None
        )
    except (sqlite3.Error, OSError, ValueError):  # gone already
        return
    try:
        if _holds_events(connection):  # (the common case: a write that succeeded)
            return
        (mode,) = connection.execute("PRAGMA journal_mode=DELETE").fetchone()
        if mode != "delete":
            return
        connection.execute("BEGIN EXCLUSIVE")
        if _holds_events(connection):  # written meanwhile, by a process that has closed it since
            connection.execute("ROLLBACK")
            connection.execute("PRAGMA journal_mode=WAL")  # as chronicle keeps its files
            return
        for path in (target, f"{target}-wal", f"{target}-shm", f"{target}-journal"):
            with contextlib.suppress(OSError):
                os.unlink(path)
    except sqlite3.Error:  # another connection is open (locked), or the file is not what it should be
        return
    finally:
        connection.close()


def _holds_events(connection: sqlite3.Connection) -> bool:
    tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return any(
        connection.execute(f'SELECT 1 FROM "{table}" LIMIT 1').fetchone()  # noqa: S608 (the file's own names)
        for table in tables
        if table.startswith("stored_")  # the library's events and snapshots
    )
