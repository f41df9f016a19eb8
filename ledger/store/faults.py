"""Storage failures that are the machine's state, not chronicle's bug: said in one line
with what to do, where the front doors translate errors (cli/main.py, cli/shell.py), never `internal`."""

from __future__ import annotations

import errno

from ...domain.errors import BadInput

# What SQLite (SQLITE_FULL), PostgreSQL (SQLSTATE 53100, disk_full) and the system (ENOSPC) say of a full disk
_FULL = ("database or disk is full", "no space left on device", "disk full")


def _full(problem: BaseException) -> bool:
    if isinstance(problem, OSError) and problem.errno == errno.ENOSPC:
        return True
    text = str(problem).lower()
    return any(words in text for words in _FULL) or getattr(problem, "sqlstate", None) == "53100"


class DiskFull(BadInput):
    code = "disk_full"


def storage_fault(problem: BaseException) -> BadInput | None:
    """The error to report for `problem` when it is a full disk (the ledger's transaction was rolled
    back: nothing was written), else None."""
    causes = [problem, *([problem.__cause__] if problem.__cause__ is not None else [])]  # (the library wraps)
    if not any(_full(cause) for cause in causes):
        return None
    return DiskFull("the ledger's disk is full: nothing was written; free some space and run the command again")
