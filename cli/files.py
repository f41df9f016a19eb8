"""Files a command writes (`export -o`, `report --html`): whole or not at all, failures one line."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import BinaryIO

from ..domain.errors import BadInput


@contextlib.contextmanager
def written(target: str) -> Iterator[BinaryIO]:
    """A binary stream for `target` (`-`: stdout). A regular file is written to a temporary file
    beside it and renamed over it only when everything was written and synced, so a failure (a full
    disk, an error half-way) leaves any older file as it was; a device or pipe is written directly."""
    if target == "-":
        with _reported(target):
            yield sys.stdout.buffer
            sys.stdout.buffer.flush()
        return
    if not target:
        raise BadInput("no file named: give a file name, or - for stdout")
    path = os.path.realpath(target) if os.path.islink(target) else target  # a link's file, never the link
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise BadInput(f"cannot write {target}: directory {folder} does not exist")
    if os.path.isdir(path):
        raise BadInput(f"cannot write {target}: it is a directory")
    if os.path.exists(path) and not os.path.isfile(path):  # /dev/full, a fifo: never renamed over
        with _reported(target), open(path, "wb") as sink:
            yield sink
        return
    with _reported(target):
        _forget_killed(folder, os.path.basename(path))
        handle, temporary = tempfile.mkstemp(
            prefix=_prefix(os.path.basename(path), os.getpid()), suffix=PART, dir=folder
        )
    try:
        with _reported(target), os.fdopen(handle, "wb") as sink:
            yield sink
            sink.flush()
            os.fsync(sink.fileno())
        with _reported(target):
            os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


PART = ".part"  # a temporary file's suffix: `.NAME.chronicle-PID-XXXXXXXX.part`, PID its writer's


def _prefix(name: str, pid: int) -> str:
    return f".{name}.chronicle-{pid}-"


def _forget_killed(folder: str, name: str) -> None:
    """Remove the temporary files a killed writer of NAME left in FOLDER (its process is gone): a
    `kill -9` skips the clean-up that every other failure does."""
    start = _prefix(name, 0)[: -len("0-")]
    try:
        found = [entry for entry in os.listdir(folder) if entry.startswith(start) and entry.endswith(PART)]
    except OSError:
        return
    for entry in found:
        pid = entry[len(start) :].partition("-")[0]
        if pid.isascii() and pid.isdigit() and len(pid) < 10 and int(pid) != os.getpid() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, entry))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


@contextlib.contextmanager
def _reported(target: str) -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        if target != "-":
            raise BadInput(f"cannot write {target}: its reader went away") from None
        raise  # stdout's reader stopped early (`| head`): Click ends quietly, as for every command
    except OSError as error:
        raise BadInput(f"cannot write {target}: {error.strerror or error}") from None
