"""Where the ledger lives: a SQLite file (default) or a PostgreSQL URL, as library settings."""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from ...domain.errors import BadInput
from ...domain.limits import typed_within_int64

DEFAULT_DB = "chronicle.db"
APPLICATION_ID = 0x6368726E  # "chrn": `PRAGMA application_id` of a SQLite file chronicle created
UNMARKED = "CHRONICLE_UNMARKED"  # in a SQLite target's settings: a ledger made before files were marked


POSTGRES_FACTORY = "chronicle.ledger.store.postgres:UnitPostgresFactory"


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def redact(target: str) -> str:
    """The target as it may be shown: never with its password, in the user part or the query string
    (even when the URL is malformed)."""
    if not is_postgres(target):
        return target
    scheme, _, rest = target.partition("://")
    userinfo, at, location = rest.rpartition("@")  # the last @: a password may hold '/', ':', '?' or '@'
    user = userinfo.split(":", 1)[0] + "@" if at else ""
    location, question, query = location.partition("?")
    query = _SECRET_PARAMETER.sub(r"\1***", query)
    return f"{scheme}://{user}{location}{question}{query}"


_SECRET_PARAMETER = re.compile(r"((?:^|&)(?:password|passfile|sslpassword|sslkey)=)[^&]*", re.IGNORECASE)


def settings(target: str, create: bool = True) -> dict[str, str]:
    """eventsourcing environment for a target; bad targets are `BadInput` with one clear line. Unless
    `create`, a SQLite file that does not exist yet is one too (commands that only read create none)."""
    env = _postgres(target) if is_postgres(target) else _sqlite(target, create)
    return {**env, **cipher()}


def connection(target: str) -> dict[str, Any]:
    """psycopg's keyword arguments for a direct connection to the PostgreSQL ledger at TARGET, as the
    library's own connections reach it (a connection of chronicle's own: the schema lock, the NOTIFY
    trigger and LISTEN of live pages)."""
    env = settings(target)
    return {
        "dbname": env["POSTGRES_DBNAME"],
        "host": env["POSTGRES_HOST"],
        "port": env["POSTGRES_PORT"],
        "user": env["POSTGRES_USER"],
        "password": env["POSTGRES_PASSWORD"] or None,
        "connect_timeout": 3,
    }


def cipher() -> dict[str, str]:
    """AES-GCM encryption at rest when `CHRONICLE_CIPHER_KEY` is set (make one: `chronicle key new`)."""
    given = os.environ.get("CHRONICLE_CIPHER_KEY")
    if given is None:
        return {}
    key = given.strip()
    if not key:  # else the library would read the blank variable as a key, for a cipher it cannot load
        raise BadInput("CHRONICLE_CIPHER_KEY is set but empty: unset it (no encryption), or set the ledger's key")
    try:
        size = len(base64.b64decode(key, validate=True))
    except ValueError:
        size = 0
    if size not in (16, 24, 32):
        raise BadInput(
            "CHRONICLE_CIPHER_KEY is not a key: expected 16, 24 or 32 bytes in base64"
            " (make one with `chronicle key new`)"
        )
    # under the application's own names too: the library reads CHRONICLE_CIPHER_KEY as typed, before CIPHER_KEY
    topic = "eventsourcing.cryptography:AESCipher"
    return {"CIPHER_TOPIC": topic, "CIPHER_KEY": key, "CHRONICLE_CIPHER_TOPIC": topic, "CHRONICLE_CIPHER_KEY": key}


# libpq's URL parameters (the query string): those the library's connections take are honoured, as
# libpq would (a parameter wins over the same part of the URL); any other is refused, naming its
# environment variable, which libpq reads for every connection: never silently ignored.
HONOURED = {"user", "password", "host", "port", "dbname", "connect_timeout"}


def _postgres(target: str) -> dict[str, str]:
    expected = (
        f"bad PostgreSQL URL {redact(target)!r}: expected postgresql://USER:PASSWORD@HOST:PORT/DBNAME"
        " (percent-encode special characters)"
    )
    try:
        parts = urlsplit(target)
        port = str(parts.port or 5432)
        query = dict(parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query)))
    except ValueError:  # its text may quote part of a password: say what is expected instead
        raise BadInput(expected) from None
    for name in sorted(query.keys() - HONOURED):
        variable = f"PG{name.replace('_', '').upper()}" if name.replace("_", "").isalnum() else None
        hint = f": set the environment variable {variable} instead" if variable and name.isascii() else ""
        raise BadInput(f"PostgreSQL URL parameter {name!r} is not supported by chronicle{hint}")
    dbname = query.get("dbname") or unquote(parts.path.lstrip("/"))
    if not dbname:
        raise BadInput(f"bad PostgreSQL URL {redact(target)!r}: no database name")
    port = query.get("port") or port
    if not (port.isascii() and port.isdigit()) or len(port) > 5 or not 0 < int(port) < 65536:
        raise BadInput(expected)
    timeout = query.get("connect_timeout", "5")
    if not (timeout.isascii() and timeout.isdigit()):
        raise BadInput("PostgreSQL URL parameter 'connect_timeout' takes whole seconds")
    seconds = typed_within_int64(timeout, "PostgreSQL URL parameter 'connect_timeout'")
    return {
        "PERSISTENCE_MODULE": POSTGRES_FACTORY,
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": query.get("host") or parts.hostname or "localhost",
        "POSTGRES_PORT": port,
        "POSTGRES_USER": query.get("user") or unquote(parts.username or os.environ.get("PGUSER", "postgres")),
        "POSTGRES_PASSWORD": query.get("password") or unquote(parts.password or os.environ.get("PGPASSWORD", "")),
        "POSTGRES_CONNECT_TIMEOUT": str(seconds),
        "POSTGRES_POOL_SIZE": "2",
        "POSTGRES_MAX_OVERFLOW": "2",
    }


def must_exist(target: str) -> None:
    """Bad input unless the SQLite file at `target` exists (PostgreSQL URLs are left to the server).
    Only the file's size is asked: opening it, even read-only, would make its WAL files appear."""
    if not target or is_postgres(target):
        return
    try:
        empty = os.path.getsize(sqlite_path(target)) == 0
    except (OSError, ValueError):  # missing, or a name the file system rejects: opening it says which
        empty = True
    if empty:
        _sqlite(target, create=False)


def sqlite_path(target: str) -> str:
    """The file a SQLite target names, read as SQLite reads it: a `file:` URI is the file at its path
    (its parameters are refused: chronicle decides how its files are opened). Absolute: the library
    opens every name as a URI, and SQLite reads no name as one unless it starts with `file:`."""
    if target.startswith("file:"):
        try:
            parts = urlsplit(target)
        except ValueError:
            parts = None
        if parts is None or parts.query or parts.fragment or parts.netloc not in ("", "localhost"):
            raise BadInput(f"cannot open {target}: give the SQLite file's path (URI parameters are not taken)")
        target = unquote(parts.path)
    if not target:
        raise BadInput("--db is empty: name a SQLite file or a postgresql:// URL")
    return os.path.abspath(target)


def _sqlite(target: str, create: bool = True) -> dict[str, str]:
    try:
        path, marked = _checked(target, create)
    except (OSError, ValueError) as error:  # a name the file system rejects (NUL, too long, ...)
        raise BadInput(f"cannot open {target!r}: {getattr(error, 'strerror', None) or error}") from None
    return {
        "PERSISTENCE_MODULE": "chronicle.ledger.store.sqlite:DurableSQLiteFactory",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "30",
        **({} if marked else {UNMARKED: "yes"}),
    }


def _checked(target: str, create: bool = True) -> tuple[Path, bool]:
    """The path, if chronicle may open it, and whether it is marked as chronicle's (or new): checked
    before the library writes anything (its first connection turns the file into a WAL database), so
    a file that is refused stays byte-identical."""
    if not target:
        raise BadInput("--db is empty: name a SQLite file or a postgresql:// URL")
    path = Path(sqlite_path(target))
    if ":memory:" in str(path) or "mode=memory" in str(path):  # the library would keep it in memory only
        raise BadInput(f"cannot open {target}: SQLite would keep a file of that name in memory only")
    if not path.parent.is_dir():
        raise BadInput(f"cannot open {target}: directory {path.parent} does not exist")
    if path.is_dir():
        raise BadInput(f"cannot open {target}: it is a directory")
    if not create and (not path.exists() or path.stat().st_size == 0):
        raise BadInput(f"no ledger at {target}: the file does not exist (a command that only reads creates none)")
    if path.exists():
        if not os.access(path, os.R_OK):
            raise BadInput(f"cannot open {target}: permission denied")
        if not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222:  # even root obeys chmod a-w
            raise BadInput(f"cannot open {target}: the file is read-only")
        problem = _not_a_ledger(path)
        if problem:
            raise BadInput(f"cannot open {target}: not a chronicle database ({problem})")
        return path, problem != ""
    return path, True


def _is_ours(table: str) -> bool:
    """A table (or index) chronicle or its library makes: events, snapshots, tracking, read models."""
    return table.startswith(("stored_", "chronicle_", "sqlite_")) or table == "tracking"


def _not_a_ledger(path: Path) -> str | None:
    """Why the file at `path` is not a chronicle ledger: None when it is one (or is empty), "" when it
    is one made before chronicle marked its files. A ledger is known by the application id chronicle
    gives its files (`APPLICATION_ID`), which no table's name can stand in for; one made before that
    (0, every table chronicle's) by its first event, of a chronicle topic: it is marked when opened
    (ledger/store/chronicle.py).

    Asked through SQLite itself, never by opening the file directly: closing any other descriptor
    of the file would drop this process's SQLite locks on it (POSIX advisory locks are per
    process), which corrupts a WAL database other processes are writing."""
    import sqlite3

    if path.stat().st_size == 0:
        return None
    # No process has it open in WAL mode (no -wal, no -shm beside it): read it as immutable, which makes neither
    # (another program's file keeps nothing of chronicle's); else the files are there already to read through.
    alone = not any(path.with_name(path.name + suffix).exists() for suffix in ("-wal", "-shm"))
    try:
        connection = sqlite3.connect(
            f"file:{quote(str(path.resolve()))}?mode=ro{'&immutable=1' if alone else ''}", uri=True
        )
        try:
            (application,) = connection.execute("PRAGMA application_id").fetchone()
            names = [name for (name,) in connection.execute("SELECT name FROM sqlite_master")]
            first = None
            if application == 0 and "stored_events" in names:
                row = connection.execute("SELECT topic FROM stored_events ORDER BY rowid LIMIT 1").fetchone()
                first = row[0] if row else None
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        return "not SQLite"
    if application == APPLICATION_ID:
        return None
    if application:
        return f"another program's SQLite file, application id {application:#x}"
    foreign = sorted(name for name in names if not _is_ours(name))
    if foreign:
        return f"another program's SQLite file, with table {foreign[0]!r}"
    if not (isinstance(first, str) and first.startswith("chronicle.")):
        return "a SQLite file without chronicle's mark or any of its events"
    return ""


def secrets(target: str) -> set[str]:
    """The passwords a PostgreSQL URL holds (in its user part or its query string), as typed and decoded."""
    found: set[str] = set()
    try:
        parts = urlsplit(target)
        found.add(parts.password or "")
        found.update(value for key, value in parse_qsl(parts.query) if key.lower() == "password")
    except ValueError:
        pass
    return {text for secret in found for text in (secret, unquote(secret))} - {""}
