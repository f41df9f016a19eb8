"""`rebuild`: read models replayed from the whole log into fresh tables, then swapped in
(projections/rebuild.py), by worker processes side by side on long logs."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from ..projections import rebuild as fresh
from . import bulk
from .app import Chronicle

PARALLEL_FROM = 20000  # events: below this, forking workers costs more than it saves

OpenLedger = Callable[..., Chronicle]


def rebuild(open_app: OpenLedger, names: Sequence[str], workers: int | None = None,
            progress: Callable[[int], Callable[[float], None]] | None = None) -> dict[str, int]:
    """Rebuild the named read models; returns how many events each replayed.

    `open_app(synced=True)` opens the ledger (`open_ledger`): the parent holds no connection while
    workers are forked. `progress(total)`, if given, returns the function to call with each part
    of it done."""
    app = open_app()
    try:
        stop = app.feed.last()
        fresh.prepare(app.views, names)
    finally:
        app.close()
    shares = workers or bulk.workers(stop, PARALLEL_FROM)
    jobs = [functools.partial(_fold_share, open_app, names, (k, shares), stop) for k in range(shares)]
    replayed = sum(bulk.run(jobs, progress(stop) if progress else None))
    app = open_app()
    try:
        replayed += fresh.swap(app.views, app.feed, names, stop)
    finally:
        app.close()
    return {name: replayed for name in names}


def _fold_share(open_app: OpenLedger, names: Sequence[str], share: tuple[int, int], stop: int,
                progress: Callable[[float], None]) -> int:
    app = open_app(synced=False)
    try:
        return fresh.fold_share(app.views, app.feed, names, stop, share, progress)
    finally:
        app.close()
