"""What a user's chronicle folder remembers in small JSON files (the heads each ledger's campaigns were last
seen at, the campaign each ledger's commands act on): read whole, rewritten whole under a lock, so processes
writing at once never leave half a file. Memory of many things (a head per ledger and campaign) is a folder
of such files, one per thing (`entry`), so a write reads and rewrites only its own; a file no longer written
(the older form of such a memory) is read once per process while it stays as it is (`kept`)."""

from __future__ import annotations

import contextlib
import hashlib
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


_kept: dict[Path, tuple[tuple[int, int, int], dict[str, Any]]] = {}  # what `kept` read, with the file's stat


def kept(path: Path) -> dict[str, Any]:
    """`read`, read again only when PATH was replaced or changed since this process last read it."""
    try:
        found = os.stat(path)
    except OSError:
        _kept.pop(path, None)
        return {}
    signature = (found.st_ino, found.st_mtime_ns, found.st_size)
    held = _kept.get(path)
    if held is not None and held[0] == signature:
        return held[1]
    value = read(path)
    _kept[path] = (signature, value)
    return value


def entry(folder: Path, key: str) -> Path:
    """The file in FOLDER that remembers what is kept under KEY (named by a hash of it: a key holds a path or
    a URL); the folder is made (owner only) on first need."""
    if not folder.is_dir():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"


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
