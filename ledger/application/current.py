"""Which campaign a user's commands act on without `--campaign`: their own choice, kept in their chronicle
folder (`current.json` in `$CHRONICLE_HOME`) per ledger, never in any campaign's log. `campaign use` and
`campaign new` choose; a user who has chosen nothing yet acts on the campaign started last (or, in a
ledger from before this file, the one last chosen there), and keeps it once they have written to it."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

MEMORY = "current.json"


def ledger_key(where: str) -> str:
    """A ledger as the user's folder names it: a SQLite file's real path, a PostgreSQL URL without its password."""
    from ..store.targets import is_postgres, redact

    return redact(where) if is_postgres(where) else os.path.realpath(where)


def chosen(where: str, at: Path | None = None) -> UUID | None:
    """The campaign this user chose last in the ledger at WHERE, if any."""
    if not where:
        return None
    from ..trust.identity import folder

    try:
        return UUID(str(_read(folder(at) / MEMORY)[ledger_key(where)]))
    except (KeyError, ValueError, TypeError, OSError):
        return None


def choose(where: str, campaign: UUID, at: Path | None = None) -> None:
    """Note CAMPAIGN as this user's current campaign in the ledger at WHERE."""
    if not where:
        return
    from ..trust.identity import folder

    path = folder(at) / MEMORY
    with _locked(path):
        kept = _read(path)
        if kept.get(ledger_key(where)) == str(campaign):
            return
        kept[ledger_key(where)] = str(campaign)
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        draft.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
        os.replace(draft, path)


def current_id(app: Any, index: Any) -> tuple[str | None, bool]:
    """The id of the campaign this user's commands act on in APP's ledger (its index caught up), and whether
    it is their own choice (else the index's: the one started last, archived ones aside)."""
    mine = chosen(getattr(app, "target", ""))
    if mine is not None:
        listed = index.store.query("SELECT archived FROM chronicle_campaigns WHERE id = ?", (str(mine),))
        if listed and not listed[0][0]:
            return str(mine), True
    return index.current_campaign(), False


def _read(path: Path) -> dict[str, Any]:
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}  # none yet, or unreadable: rewritten whole at the next choice
    return found if isinstance(found, dict) else {}


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One process at a time rewrites the file (POSIX advisory lock; elsewhere, none)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(path.with_name(f".{path.name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
