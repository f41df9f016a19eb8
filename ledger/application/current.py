"""Which campaign a user's commands act on without `--campaign`: their own choice, kept in their chronicle
folder (`current.json` in `$CHRONICLE_HOME`) per ledger, never in any campaign's log. `campaign use` and
`campaign new` choose; a user who has chosen nothing yet acts on the campaign started last (or, in a
ledger from before this file, the one last chosen there), and keeps it once they have written to it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from uuid import UUID

from ..trust import memory

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
        return UUID(str(memory.read(folder(at) / MEMORY)[ledger_key(where)]))
    except (KeyError, ValueError, TypeError, OSError):
        return None


def choose(where: str, campaign: UUID, at: Path | None = None) -> None:
    """Note CAMPAIGN as this user's current campaign in the ledger at WHERE."""
    if not where:
        return
    from ..trust.identity import folder

    path = folder(at) / MEMORY
    with memory.locked(path):
        kept = memory.read(path)
        if kept.get(ledger_key(where)) == str(campaign):
            return
        kept[ledger_key(where)] = str(campaign)
        memory.rewrite(path, kept)


def current_id(app: Any, index: Any) -> tuple[str | None, bool]:
    """The id of the campaign this user's commands act on in APP's ledger (its index caught up), and whether
    it is their own choice (else the index's: the one started last, archived ones aside)."""
    mine = chosen(getattr(app, "target", ""))
    if mine is not None:
        listed = index.store.query("SELECT archived FROM chronicle_campaigns WHERE id = ?", (str(mine),))
        if listed and not listed[0][0]:
            return str(mine), True
    return index.current_campaign(), False
