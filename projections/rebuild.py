"""`rebuild`'s read-model half: fresh tables, a share of the log folded into them, and the swap.

The fresh tables are filled without their indexes, which are built once at the end (far cheaper
than keeping them up to date row by row), by workers that each fold the events of their share of
the aggregates: each character's rows depend on its own events only. Readers keep the old rows
until one transaction replaces them, with the position the new ones were built up to; events
appended meanwhile are then caught up like any others. A rebuild that dies leaves the old read
models as they were. (ledger/bulk/rebuild.py opens the ledger and runs the workers.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import characters, index
from .catchup import ReadModel, catch_up
from .store import ViewStore
from .told import VIEW as TOLD

if TYPE_CHECKING:  # annotations only: the protocols are not needed at run time
    from .feed import Feed

MODELS: dict[str, tuple[ModuleType, type[index.Index] | type[characters.Characters]]] = {
    "index": (index, index.Index),
    "characters": (characters, characters.Characters),
}
SUFFIX = "_rebuilt"
PAGE = 2000  # events decoded at a time: a page's decoded states are held together
WRITE = 20000  # events folded between two writes: fewer, larger transactions


def prepare(store: ViewStore, names: Sequence[str], suffix: str = SUFFIX) -> None:
    """Create the named read models' fresh tables, empty and without indexes."""
    with store.transaction() as cursor:
        for name in names:
            store.create_tables(cursor, MODELS[name][0].TABLES, suffix)


def discard(store: ViewStore, names: Sequence[str], suffix: str = SUFFIX) -> None:
    """Drop the fresh tables of a rebuild that failed."""
    with store.transaction() as cursor:
        for name in names:
            for table in MODELS[name][0].TABLES:
                cursor.execute(f"DROP TABLE IF EXISTS {table}{suffix}")


def fold_share(
    store: ViewStore,
    feed: Feed,
    names: Sequence[str],
    stop: int,
    share: tuple[int, int],
    progress: Callable[[float], None],
    suffix: str = SUFFIX,
) -> int:
    """Fold the log up to `stop` into the fresh tables, for the aggregates of `share` (k of n);
    returns how many events that was. The swap's synced commit makes them durable."""
    views = [MODELS[name][1](store, feed, suffix) for name in names]
    read, unwritten, folded = 0, 0, []
    for page in feed.window(0, stop, PAGE, share):
        folded += [(view, view.fold(page)) for view in views]
        read, unwritten = read + len(page), unwritten + len(page)
        if unwritten >= WRITE:
            _write(store, folded)
            unwritten, folded = 0, []
        progress(len(page))
    _write(store, folded + [(view, view.held_rows()) for view in views if isinstance(view, characters.Characters)])
    return read


def swap(
    store: ViewStore, feed: Feed, names: Sequence[str], stop: int, suffix: str = SUFFIX, keep_told: bool = False
) -> int:
    """Put the fresh tables in place of the old ones, indexed, at position `stop` (one transaction),
    then fold what was appended meanwhile; returns how many events that was."""
    told = "index" in names and not keep_told and store.position(f"{TOLD}:schema") != 0
    with store.transaction() as cursor:
        if told:  # with the index, the sentences `log` kept (projections/told.py): the events tell them again
            cursor.execute("DELETE FROM chronicle_told")
        for name in names:
            module, _ = MODELS[name]
            for table in module.TABLES:
                cursor.execute(f"DROP TABLE IF EXISTS {table}")
                cursor.execute(f"ALTER TABLE {table}{suffix} RENAME TO {table}")
            store.create_indexes(cursor, module.TABLES, module.INDEXES)
            store.analyze(cursor, module.TABLES)
            store.reset(cursor, module.VIEW)
            if stop:
                store.track(cursor, module.VIEW, stop)
            store.mark(cursor, module.VIEW, module.VERSION)
    views: list[ReadModel] = [MODELS[name][1](store, feed) for name in names]
    return catch_up(views)


def _write(store: ViewStore, folded: Sequence[tuple[ReadModel, Any]]) -> None:  # each model's own rows
    with store.transaction() as cursor:
        for view, rows in folded:
            view.write(cursor, rows)
