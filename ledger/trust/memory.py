"""What a user's chronicle folder remembers in small JSON files (the heads each ledger's campaigns were last
seen at, the campaign each ledger's commands act on): read whole, rewritten whole under a lock, so processes
writing at once never leave half a file."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def read(path: Path) -> dict[str, Any]:
    """What PATH remembers ({} when there is none yet, or it cannot be read: rewritten whole next time)."""
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def rewrite(path: Path, kept: dict[str, Any]) -> None:
    """PATH holds KEPT, replaced in one step (a draft beside it, renamed over it)."""
    draft = path.with_name(f".{path.name}.{os.getpid()}")
    draft.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
    os.replace(draft, path)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """One process at a time rewrites PATH (POSIX advisory lock; elsewhere, none)."""
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
