"""Where the ledger lives: a SQLite file (default) or a PostgreSQL URL, as library settings."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..domain.errors import BadInput

DEFAULT_DB = "chronicle.db"
SQLITE_HEADER = b"SQLite format 3\x00"


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def redact(target: str) -> str:
    """The target as it may be shown: never with its password."""
    if not is_postgres(target):
        return target
    parts = urlsplit(target)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


def settings(target: str) -> dict[str, str]:
    """eventsourcing environment for a target; bad targets are `BadInput` with one clear line."""
    if is_postgres(target):
        return _postgres(target)
    return _sqlite(target)


def _postgres(target: str) -> dict[str, str]:
    try:
        parts = urlsplit(target)
        port = parts.port or 5432
    except ValueError as error:
        raise BadInput(f"bad PostgreSQL URL {redact(target)!r}: {error}") from None
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
    path = Path(target)
    if not path.parent.is_dir():
        raise BadInput(f"cannot open {target}: directory {path.parent} does not exist")
    if path.is_dir():
        raise BadInput(f"cannot open {target}: it is a directory")
    if path.exists():
        with path.open("rb") as handle:
            header = handle.read(16)
        if header and header != SQLITE_HEADER:
            raise BadInput(f"cannot open {target}: not a chronicle database (not SQLite)")
        if not os.access(path, os.W_OK):
            raise BadInput(f"cannot open {target}: the file is read-only")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "30",
    }
