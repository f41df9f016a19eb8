"""`rebuild`: read models replayed from the whole log into fresh tables, then swapped in.

The fresh tables are filled without their indexes, which are built once at the end (far cheaper
than keeping them up to date row by row), by worker processes that each fold the events of their
share of the aggregates: each character's rows depend on its own events only. Readers keep the
old rows until one transaction replaces them, with the position the new ones were built up to;
events appended meanwhile are then caught up like any others. A rebuild that dies leaves the
old read models as they were.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..ledger import bulk
from ..ledger.history import stored_pages
from . import characters, index
from .catchup import catch_up, decoded

MODELS = {"index": (index, index.Index), "characters": (characters, characters.Characters)}
SUFFIX = "_rebuilt"
PAGE = 2000  # events decoded at a time: a page's decoded states are held together
WRITE = 20000  # events folded between two writes: fewer, larger transactions
PARALLEL_FROM = 20000  # notifications: below this, forking workers costs more than it saves


def rebuild(open_app: Callable[..., Any], names: Sequence[str], workers: int | None = None,
            progress: Callable[[int], Callable[[float], None]] | None = None) -> dict[str, int]:
    """Rebuild the named read models; returns how many notifications each replayed.

    `open_app(synced=True)` opens the ledger (`open_ledger`): the parent holds no connection while
    workers are forked.
    `progress(total)`, if given, returns the function to call with each part of it done."""
    app = open_app()
    try:
        stop = app.recorder.max_notification_id() or 0
        with app.views.transaction() as cursor:
            for name in names:
                app.views.create_tables(cursor, MODELS[name][0].TABLES, SUFFIX)
    finally:
        app.close()
    shares = workers or bulk.workers(stop, PARALLEL_FROM)
    jobs = [functools.partial(_fold_share, open_app, names, k, shares, stop) for k in range(shares)]
    replayed = sum(bulk.run(jobs, progress(stop) if progress else None))
    app = open_app()
    try:
        _swap(app.views, names, stop)
        replayed += catch_up([MODELS[name][1](app.views) for name in names])
    finally:
        app.close()
    return {name: replayed for name in names}


def _fold_share(open_app: Callable[..., Any], names: Sequence[str], k: int, shares: int, stop: int,
                progress: Callable[[float], None]) -> int:
    """Fold the log up to `stop` into the fresh tables, for the aggregates of share `k` of `shares`;
    returns how many events that was. The swap's synced commit makes them durable."""
    app = open_app(synced=False)
    try:
        views = [MODELS[name][1](app.views, SUFFIX) for name in names]
        read, unwritten, folded = 0, 0, []
        for batch in stored_pages(app, 0, stop, PAGE, (k, shares)):
            page = decoded(app.mapper, batch)
            folded += [(view, view.fold(page)) for view in views]
            read, unwritten = read + len(batch), unwritten + len(batch)
            if unwritten >= WRITE:
                _write(app.views, folded)
                unwritten, folded = 0, []
            progress(len(batch))
        _write(app.views, folded + [(view, view.held_rows()) for view in views
                                     if isinstance(view, characters.Characters)])
    finally:
        app.close()
    return read


def _write(store: Any, folded: list[tuple[Any, Any]]) -> None:
    with store.transaction() as cursor:
        for view, rows in folded:
            view.write(cursor, rows)


def _swap(store: Any, names: Sequence[str], stop: int) -> None:
    """Put the fresh tables in place of the old ones, indexed, at position `stop`: one transaction."""
    with store.transaction() as cursor:
        for name in names:
            module, _ = MODELS[name]
            for table in module.TABLES:
                cursor.execute(f"DROP TABLE IF EXISTS {table}")
                cursor.execute(f"ALTER TABLE {table}{SUFFIX} RENAME TO {table}")
            store.create_indexes(cursor, module.TABLES, module.INDEXES)
            store.analyze(cursor, module.TABLES)
            store.reset(cursor, module.VIEW)
            if stop:
                store.track(cursor, module.VIEW, stop)
            store.mark(cursor, module.VIEW, module.VERSION)
