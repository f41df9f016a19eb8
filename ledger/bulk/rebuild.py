"""`rebuild`: read models replayed from the whole log into fresh tables, then swapped in
(projections/rebuild.py), by worker processes side by side on long logs."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Sequence

from ...domain.errors import DamagedLog
from ...projections import rebuild as fresh
from ..store.chronicle import Chronicle
from . import workers as bulk

PARALLEL_FROM = 20000  # events: below this, forking workers costs more than it saves
PROJECTIONS = tuple(fresh.MODELS)  # the read models every command reads: index, characters

OpenLedger = Callable[..., Chronicle]


def rebuild(
    open_app: OpenLedger,
    names: Sequence[str],
    workers: int | None = None,
    progress: Callable[[int], Callable[[float], None]] | None = None,
    keep_told: bool = False,
) -> dict[str, int]:
    """Rebuild the named read models; returns how many events each replayed. Losing a race to
    another writer starts it again after a pause, as a single command would.

    `open_app(synced=True)` opens the ledger (`open_ledger`): the parent holds no connection while
    workers are forked. `progress(total)`, if given, returns the function to call with each part
    of it done. The sentences `log` kept go with the index unless `keep_told` (an import that has just
    kept those of its events)."""
    from eventsourcing.domain import OriginatorIDError, OriginatorVersionError

    from ..application.retries import retried  # (the application layer's retry rules, as a command's)

    try:
        return retried(
            lambda attempt: _rebuild(open_app, names, workers, progress, keep_told),
            lambda tries: (
                f"other writers kept changing the read models at the same time; the rebuild gave up after "
                f"{tries} tries, leaving them as they were: run it again"
            ),
        )
    except (OriginatorVersionError, OriginatorIDError):
        raise DamagedLog(
            "the log no longer holds every event of an aggregate (an event was removed or moved): the read"
            " models cannot be folded from it, and were left as they were; `chronicle verify` names what"
            " changed, and a copy of the ledger from before restores it"
        ) from None


def _rebuild(
    open_app: OpenLedger,
    names: Sequence[str],
    workers: int | None,
    progress: Callable[[int], Callable[[float], None]] | None,
    keep_told: bool = False,
) -> dict[str, int]:
    """One try. Its fresh tables are its own (named after this process: rebuilds running at once do
    not fill each other's), and dropped if it fails."""
    suffix = f"{fresh.SUFFIX}_{os.getpid()}"
    app = open_app()
    try:
        stop = app.feed.last()
        fresh.prepare(app.views, names, suffix)
    finally:
        app.close()
    try:
        shares = workers or bulk.workers(stop, PARALLEL_FROM)
        jobs = [functools.partial(_fold_share, open_app, names, (k, shares), stop, suffix) for k in range(shares)]
        replayed = sum(bulk.run(jobs, progress(stop) if progress else None))
        app = open_app()
        try:
            replayed += fresh.swap(app.views, app.feed, names, stop, suffix, keep_told)
        finally:
            app.close()
    except BaseException:
        _discard(open_app, names, suffix)
        raise
    return {name: replayed for name in names}


def _discard(open_app: OpenLedger, names: Sequence[str], suffix: str) -> None:
    """Best effort: a rebuild that failed (or was interrupted) leaves no fresh tables behind."""
    with contextlib.suppress(Exception):
        app = open_app()
        try:
            fresh.discard(app.views, names, suffix)
        finally:
            app.close()


def _fold_share(
    open_app: OpenLedger,
    names: Sequence[str],
    share: tuple[int, int],
    stop: int,
    suffix: str,
    progress: Callable[[float], None],
) -> int:
    app = open_app(synced=False)
    try:
        return fresh.fold_share(app.views, app.feed, names, stop, share, progress, suffix)
    finally:
        app.close()
