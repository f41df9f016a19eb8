"""Catching read models up with the log.

Each page of the log is read and decoded once (by the feed) and handed to every read model behind
it; their rows and new positions are written in one transaction with the library's tracking, so
each event is processed exactly once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from eventsourcing.domain import OriginatorVersionError
from eventsourcing.persistence import IntegrityError, OperationalError

from ..domain.errors import ChronicleError
from ..domain.text import first_line
from .store import ViewStore

if TYPE_CHECKING:  # annotations only: the protocols are not needed at run time
    from .feed import Feed, Logged

BATCH = 5000
DEADLOCKS = 30  # a fold outside any unit chosen as a deadlock's victim is folded again at most this often


class ReadModel(Protocol):
    VIEW: str
    store: ViewStore
    feed: Feed

    def position(self) -> int:
        """The last log position folded into the stored rows."""

    def fold(self, events: Sequence[Logged]) -> Any:
        """The rows these events (all after `position()`) change, computed before writing."""

    def write(self, cursor: Any, rows: Any) -> None: ...

    def moved(self, position: int) -> None:
        """The rows are now stored up to `position`."""

    def forget(self) -> None:
        """Another process wrote first: drop what is held in memory."""


def catch_up(
    views: Sequence[ReadModel],
    progress: Callable[[int], None] | None = None,
    batch_size: int = BATCH,
    known: Sequence[Logged] = (),
) -> int:
    """Fold every event after the views' positions into their rows; returns how many were read.

    `known`: events the caller has just saved, in log order, with their positions. When they follow
    every view's position directly they are folded as they are, without reading the log back (a
    batch's events, which reading back would decode a second time); else, or if
    another process folded them first, the log is read as usual.

    A fold or a write that fails is tried again only when another process moved a view's position
    meanwhile (it folded those events first); else the same events would fail the same way for
    ever, and it is `Stuck`."""
    store, feed = views[0].store, views[0].feed
    if known and _follow(views, known):
        at = {view: known[0].position - 1 for view in views}
        try:
            _store(store, [(view, view.fold(known)) for view in views], at, known[-1].position)
            return len(known)
        except (OriginatorVersionError, IntegrityError) as problem:
            _forget(views)
            _failed_in_unit(store, views, at, known[0].position - 1, known[-1].position, problem)
    done = deadlocks = 0
    while True:
        at = {view: view.position() for view in views}
        start = min(at.values())
        page = feed.after(start, batch_size)
        if not page:
            return done
        end = page[-1].position
        behind = [
            (view, page if at[view] == start else [e for e in page if e.position > at[view]])
            for view in views
            if at[view] < end
        ]
        try:
            # Rows read after the position was, and folded onto (PostgreSQL, where each statement sees the
            # latest commit): another process may have folded these events in between.
            folded = [(view, view.fold(todo)) for view, todo in behind]
            _store(store, folded, at, end)
        except (OriginatorVersionError, IntegrityError) as problem:  # another process folded these first?
            _forget(views)
            _failed_in_unit(store, views, at, start, end, problem)
            if all(view.position() == at[view] for view in views):
                raise Stuck(start, end, problem) from problem
            continue
        except OperationalError as problem:  # PostgreSQL chose this fold as a deadlock's victim: rolled back
            deadlocks += 1
            if "deadlock" not in str(problem).lower() or _in_unit(store) or deadlocks > DEADLOCKS:
                raise  # (in a unit: the whole command is the lost race, tried again by the application layer)
            _forget(views)
            time.sleep(random.uniform(0, 0.01 * deadlocks))
            continue
        done += len(page)
        if progress:
            progress(len(page))
        if len(page) < batch_size:  # the log's end when it was read: a page more would be empty
            return done


class Stuck(ChronicleError):
    """The read models cannot take the log's next events, and no other process has moved them on."""

    code = "read_models"

    def __init__(self, start: int, end: int, problem: BaseException):
        if isinstance(problem, OriginatorVersionError):  # (its text is two numbers)
            reason = "a row is not at the version the next event of its aggregate follows"
        else:
            reason = first_line(problem)
        super().__init__(
            f"the read models cannot take the events after #{start} (up to #{end}): {reason}; nothing was"
            " written: run `chronicle rebuild`, which replays them from the log"
        )


def _store(store: ViewStore, folded: Sequence[tuple[ReadModel, Any]], at: dict[Any, int], end: int) -> None:
    """The views' rows and their new position `end`, in one transaction, each view's moving from its
    position `at` when the rows were folded (the library's IntegrityError when another process moved
    it meanwhile: nothing is written)."""
    with store.transaction() as cursor:
        for view, rows in folded:
            view.write(cursor, rows)
            store.track(cursor, view.VIEW, end, after=at[view])
    for view, _ in folded:
        view.moved(end)


def _failed_in_unit(
    store: ViewStore, views: Sequence[ReadModel], at: dict[Any, int], start: int, end: int, problem: Exception
) -> None:
    """A write of the rows that failed in a PostgreSQL unit failed its transaction with it: the command is tried
    again whole (its lost race: another process folded these events first). When the next try fails from the
    very same positions, no one moved them: the read models are `Stuck`."""
    unit_key = getattr(store.datastore, "unit_key", None)  # type: ignore[attr-defined]
    if unit_key is None or unit_key() is None or not isinstance(problem, IntegrityError):
        return
    positions = tuple(sorted((view.VIEW, position) for view, position in at.items()))
    failed, store.failed_from = store.failed_from, positions
    if failed == positions:
        store.failed_from = None
        raise Stuck(start, end, problem) from problem
    raise problem


def _in_unit(store: ViewStore) -> bool:
    """Whether this fold is part of a command's unit of work (ledger/store/chronicle.py)."""
    return bool(getattr(store.datastore, "in_unit", False))  # type: ignore[attr-defined]


def _forget(views: Sequence[ReadModel]) -> None:
    for view in views:
        view.forget()


def _follow(views: Sequence[ReadModel], known: Sequence[Logged]) -> bool:
    """Whether `known` are the very next positions of the log after every view's."""
    first, last = known[0].position, known[-1].position
    return last - first + 1 == len(known) and all(view.position() == first - 1 for view in views)
