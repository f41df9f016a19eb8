"""How bulk work runs: with the cyclic garbage collector paused, and, where it divides by
aggregate, in forked worker processes side by side (the machine's other cores).

A job is a generator function called with `progress(n)`: the chunks (lists) it yields stream back
to the caller in order (`Workers.outputs`), and what it returns is its result. A
worker blocks while the caller has not read its last chunk, so the caller's reading paces the
workers and memory stays bounded. The caller forks with no database connection open (each job
opens its own, if it needs one), so nothing a child inherits is ever used by it.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

Progress = Callable[[float], None]
Job = Callable[[Progress], Generator[list[Any], None, Any]]  # its chunks, then its result


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


def run(jobs: Sequence[Callable[[Progress], Any]], progress: Progress | None = None) -> list[Any]:
    """Plain functions (no output stream) as jobs: their results, in order."""
    with Workers([functools.partial(_returning, job) for job in jobs], progress) as running:
        return running.results()


class Workers:
    """The jobs running, in forked children (or in this process, lazily, when there is one)."""

    def __init__(self, jobs: Sequence[Job], progress: Progress | None = None):
        self.progress = progress or _ignore
        self._results: dict[int, Any] = {}
        self._children: list[Any] = []
        if len(jobs) == 1:
            self.outputs = [self._local(jobs[0])]
            return
        import multiprocessing  # only when there are workers to fork: a batch or a small import needs none

        context = multiprocessing.get_context("fork")
        # What lives now lives on (modules, models, the ledger's setup): out of the collector's sight, as
        # Python advises before a fork, so that neither the children nor this process (to its exit,
        # whose collection traversed it all) go through it again.
        gc.freeze()
        self.outputs = []
        for k, job in enumerate(jobs):
            receiver, sender = context.Pipe(duplex=False)
            readers = [receiver, *(r for _, r in self._children)]
            child = context.Process(target=_child, args=(job, sender, readers), daemon=True)
            child.start()
            sender.close()
            self._children.append((child, receiver))
            self.outputs.append(self._remote(k, receiver))

    def results(self) -> list[Any]:
        """Each job's result, once the rest of its output is read; the first error raised in a job
        is raised here."""
        for output in self.outputs:
            for _ in output:
                pass
        return [self._results[k] for k in range(len(self.outputs))]

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_: Any) -> None:
        for child, receiver in self._children:
            if child.is_alive():
                child.terminate()  # the caller gave up early (an error): the job's work is not wanted
            child.join()
            receiver.close()

    def _local(self, job: Job) -> Iterator[list[Any]]:
        with paused_gc():
            self._results[0] = yield from job(self.progress)

    def _remote(self, k: int, receiver: Connection) -> Iterator[list[Any]]:
        while True:
            try:
                kind, value = receiver.recv()
            except EOFError:  # the child died without a word (killed)
                raise RuntimeError(f"worker {k + 1} of {len(self.outputs)} ended unexpectedly") from None
            if kind == "chunk":
                yield value
            elif kind == "progress":
                self.progress(value)
            elif kind == "failed":
                raise value
            else:
                self._results[k] = value
                return


def _returning(job: Callable[[Progress], Any], progress: Progress) -> Generator[list[Any], None, Any]:
    return job(progress)
    yield  # a generator function that yields nothing


def _child(job: Job, sender: Connection, readers: list[Connection]) -> None:
    """Run the job, sending its chunks to the parent. The read ends of the pipes, its own and its
    elder siblings', came with the fork: closed, so that once the parent is gone (killed) a send
    fails and the child ends, rather than blocking forever on a pipe it keeps open itself."""
    for reader in readers:
        reader.close()
    gc.disable()  # the child's life is the bulk job
    try:
        chunks = job(lambda n: sender.send(("progress", n)))
        while True:
            try:
                sender.send(("chunk", next(chunks)))
            except StopIteration as done:
                sender.send(("done", done.value))
                break
    except (BrokenPipeError, ConnectionResetError):
        return  # the parent is gone: nobody to tell
    except BaseException as error:  # noqa: BLE001 - every failure goes back to the parent
        try:
            sender.send(("failed", error))
        except Exception:  # an error that does not pickle: its text
            sender.send(("failed", RuntimeError(f"{type(error).__name__}: {error}")))
    finally:
        sender.close()


def _ignore(_: float) -> None:
    return None
