"""Catching read models up with the log.

Each page of notifications is read and decoded once and handed to every read model behind it;
their rows and new positions are written in one transaction with the library's tracking, so each
notification is processed exactly once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from eventsourcing.persistence import IntegrityError

BATCH = 5000
Decoded = tuple[Any, dict[str, Any]]  # a notification (or a `Stored` row) and its decoded state


def decoded(mapper: Any, notifications: Sequence[Any]) -> list[Decoded]:
    """The notifications with their states decoded, once for every read model that folds them."""
    decode = mapper.decode_state
    return [(n, decode(n.state)) for n in notifications]


class ReadModel(Protocol):
    VIEW: str

    def position(self) -> int:
        """The last notification folded into the stored rows."""

    def fold(self, events: Sequence[Decoded]) -> Any:
        """The rows these notifications (all after `position()`) change, computed before writing."""

    def write(self, cursor: Any, rows: Any) -> None: ...

    def moved(self, position: int) -> None:
        """The rows are now stored up to `position`."""

    def forget(self) -> None:
        """Another process wrote first: drop what is held in memory."""


def catch_up(views: Sequence[ReadModel], progress: Callable[[int], None] | None = None,
             batch_size: int = BATCH) -> int:
    """Fold every notification after the views' positions into their rows; returns how many were read."""
    store = views[0].store  # type: ignore[attr-defined]
    recorder, mapper = store.app.recorder, store.app.mapper
    done = 0
    while True:
        at = {view: view.position() for view in views}
        start = min(at.values())
        batch = recorder.select_notifications(start=start, limit=batch_size, inclusive_of_start=False)
        if not batch:
            return done
        end = batch[-1].id
        page = decoded(mapper, batch)
        behind = [(view, page if at[view] == start else [d for d in page if d[0].id > at[view]])
                  for view in views if at[view] < end]
        folded = [(view, view.fold(todo)) for view, todo in behind]
        try:
            with store.transaction() as cursor:
                for view, rows in folded:
                    view.write(cursor, rows)
                    store.track(cursor, view.VIEW, end)
        except IntegrityError:  # another process folded these first (all rolled back): resume after it
            for view in views:
                view.forget()
            continue
        for view, _ in folded:
            view.moved(end)
        done += len(batch)
        if progress:
            progress(len(batch))
