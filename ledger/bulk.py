"""How bulk work runs: with the cyclic garbage collector paused, and, where it divides by
aggregate, in forked worker processes (the machine's other cores).

`run` calls each job in its own child with a `progress(n)` callback; progress, the result or the
error come back through a pipe. The caller forks with no database connection open (each job
opens its own), so nothing a child inherits is ever used by it.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

Job = Callable[[Callable[[float], None]], Any]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic collector. Bulk work keeps large read models or verifier state alive while
    it allocates millions of short-lived, acyclic objects (decoded events): the collector then
    spends up to a third of the time traversing what stays alive, and frees nothing more than
    reference counting does."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def workers(size: int, threshold: int) -> int:
    """How many processes for `size` units of work: one below `threshold`, else one per core."""
    return 1 if size < threshold else max(1, min(os.cpu_count() or 1, 8))


def run(jobs: Sequence[Job], progress: Callable[[float], None] | None = None) -> list[Any]:
    """The jobs' results, in order; the first error raised in any job is raised here."""
    if len(jobs) == 1:
        with paused_gc():
            return [jobs[0](progress or _ignore)]
    context = multiprocessing.get_context("fork")
    pipes, children = [], []
    for job in jobs:
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(target=_child, args=(job, sender), daemon=True)
        child.start()
        sender.close()
        pipes.append(receiver)
        children.append(child)
    results: dict[int, Any] = {}
    try:
        open_pipes = dict(enumerate(pipes))
        while open_pipes:
            for ready in wait(list(open_pipes.values())):
                k = pipes.index(ready)  # type: ignore[arg-type]
                try:
                    kind, value = ready.recv()  # type: ignore[union-attr]
                except EOFError:  # the child died without a word (killed)
                    raise RuntimeError(f"worker {k + 1} of {len(jobs)} ended unexpectedly") from None
                if kind == "progress":
                    if progress:
                        progress(value)
                    continue
                del open_pipes[k]
                if kind == "failed":
                    raise value
                results[k] = value
    finally:
        for child in children:
            if child.is_alive() and len(results) < len(jobs):
                child.terminate()
            child.join()
        for pipe in pipes:
            pipe.close()
    return [results[k] for k in range(len(jobs))]


def _child(job: Job, sender: Connection) -> None:
    gc.disable()  # the child's life is the bulk job
    try:
        result = job(lambda n: sender.send(("progress", n)))
    except BaseException as error:  # noqa: BLE001 - every failure goes back to the parent
        try:
            sender.send(("failed", error))
        except Exception:  # an error that does not pickle: its text
            sender.send(("failed", RuntimeError(f"{type(error).__name__}: {error}")))
    else:
        sender.send(("done", result))
    finally:
        sender.close()


def _ignore(_: float) -> None:
    return None
