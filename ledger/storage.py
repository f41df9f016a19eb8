"""Where the ledger lives: a SQLite file (default) or a PostgreSQL URL, as library settings."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from ..domain.errors import BadInput

DEFAULT_DB = "chronicle.db"


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def redact(target: str) -> str:
    """The target as it may be shown: never with its password (even when the URL is malformed)."""
    if not is_postgres(target):
        return target
    scheme, _, rest = target.partition("://")
    userinfo, at, location = rest.rpartition("@")  # the last @: a password may hold '/', ':' or '@'
    user = userinfo.split(":", 1)[0] + "@" if at else ""
    return f"{scheme}://{user}{location}"


def settings(target: str) -> dict[str, str]:
    """eventsourcing environment for a target; bad targets are `BadInput` with one clear line."""
    env = _postgres(target) if is_postgres(target) else _sqlite(target)
    return {**env, **cipher()}


def cipher() -> dict[str, str]:
    """AES-GCM encryption at rest when `CHRONICLE_CIPHER_KEY` is set (make one: `chronicle key new`)."""
    key = os.environ.get("CHRONICLE_CIPHER_KEY", "").strip()
    if not key:
        return {}
    try:
        size = len(base64.b64decode(key, validate=True))
    except ValueError:
        size = 0
    if size not in (16, 24, 32):
        raise BadInput("CHRONICLE_CIPHER_KEY is not a key: expected 16, 24 or 32 bytes in base64"
                       " (make one with `chronicle key new`)")
    return {"CIPHER_TOPIC": "eventsourcing.cryptography:AESCipher", "CIPHER_KEY": key}


def _postgres(target: str) -> dict[str, str]:
    try:
        parts = urlsplit(target)
        port = parts.port or 5432
    except ValueError:  # its text may quote part of a password: say what is expected instead
        raise BadInput(f"bad PostgreSQL URL {redact(target)!r}: expected postgresql://USER:PASSWORD@HOST:PORT/DBNAME"
                       " (percent-encode special characters)") from None
    dbname = parts.path.lstrip("/")
    if not dbname:
        raise BadInput(f"bad PostgreSQL URL {redact(target)!r}: no database name")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": unquote(dbname),
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(port),
        "POSTGRES_USER": unquote(parts.username or os.environ.get("PGUSER", "postgres")),
        "POSTGRES_PASSWORD": unquote(parts.password or os.environ.get("PGPASSWORD", "")),
        "POSTGRES_CONNECT_TIMEOUT": "5",
        "POSTGRES_POOL_SIZE": "2",
        "POSTGRES_MAX_OVERFLOW": "2",
    }


def _sqlite(target: str) -> dict[str, str]:
    try:
        path = _checked(target)
    except (OSError, ValueError) as error:  # a name the file system rejects (NUL, too long, ...)
        raise BadInput(f"cannot open {target!r}: {getattr(error, 'strerror', None) or error}") from None
    return {
        "PERSISTENCE_MODULE": "chronicle.ledger.durable_sqlite:DurableSQLiteFactory",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "30",
    }


def _checked(target: str) -> Path:
    path = Path(target)
    if not path.parent.is_dir():
        raise BadInput(f"cannot open {target}: directory {path.parent} does not exist")
    if path.is_dir():
        raise BadInput(f"cannot open {target}: it is a directory")
    if path.exists():
        if not os.access(path, os.R_OK):
            raise BadInput(f"cannot open {target}: permission denied")
        if not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222:  # even root obeys chmod a-w
            raise BadInput(f"cannot open {target}: the file is read-only")
        if not _is_sqlite(path):
            raise BadInput(f"cannot open {target}: not a chronicle database (not SQLite)")
    return path


def _is_sqlite(path: Path) -> bool:
    """Asked through SQLite itself, never by opening the file directly: closing any other
    descriptor of the file would drop this process's SQLite locks on it (POSIX advisory locks
    are per process), which corrupts a WAL database other processes are writing."""
    import sqlite3

    try:
        connection = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
        try:
            connection.execute("PRAGMA schema_version").fetchone()
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        return False
    return True
