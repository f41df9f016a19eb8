"""A batch: many commands in one unit of work and one transaction, all or nothing (`chronicle batch`).

On SQLite the transaction is open from the start (ledger/store/chronicle.py's unit), and every FLUSH
commands the events decided so far are inserted into it and folded into the index, so memory stays flat
however long the batch; the first failing command rolls all of it back. On PostgreSQL the session holds
the events and saves them once, at the end. A batch that loses a race to another writer is run again
from its first command, as a single command is (ledger/application/retries.py)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from .retries import PESSIMISTIC_FROM, retried

if TYPE_CHECKING:
    from .ledger import Ledger
    from .session import Session

T = TypeVar("T")

FLUSH = 500  # commands: their decided events are inserted into the batch's open transaction, and let go


def run_batch(ledger: Ledger, items: Callable[[], Iterable[T]], run: Callable[[T], bool]) -> tuple[int, int]:
    """Run `run(item)` for each of `items()` (read again for a retry) inside one batch of LEDGER: every
    command it executes joins the batch's unit of work (`ledger.batch`), and what it reads sees what the
    batch decided so far. `run` says whether the item held a command (a blank line does not). Returns
    how many did and how many events were recorded."""
    return retried(
        lambda attempt: _once(ledger, items(), run, attempt >= PESSIMISTIC_FROM),
        lambda tries: (
            f"other writers kept the ledger busy; nothing of the batch was written after {tries} tries:"
            " run the batch again"
        ),
    )


def _once(ledger: Ledger, items: Iterable[T], run: Callable[[T], bool], immediate: bool) -> tuple[int, int]:
    from ..bulk.workers import paused_gc

    app = ledger.app
    flushing = app.has_units
    count = recorded = 0
    outer = ledger.batch
    with app.unit(immediate):
        session = ledger.session()
        ledger.batch_opened(session)  # a log rewritten behind this chronicle's back takes no batch either
        app.characters.catch_up()  # the rows stand right before the batch's events: it writes them at the end
        ledger.batch = session
        try:
            with paused_gc():
                for item in items:
                    if not run(item):
                        continue
                    count += 1
                    if flushing and count % FLUSH == 0:
                        recorded += _save(session)
                        session.catch_up()  # the index folds them from memory, in the batch's transaction
                        ledger.batch_saved(session)  # and the stored trees grow by them
                        gc.collect(0)  # the commands' own cycles (a front door's contexts, caught errors), if any
                recorded += _save(session)
                if recorded:
                    session.catch_up()  # the index folds the batch's events in its transaction
                    ledger.batch_saved(session)
                    session.write_rows()  # and the characters' rows are written as the batch left them
        finally:
            ledger.batch = outer
    ledger.batch_committed(session)
    session.take_snapshots()
    return count, recorded


def _save(session: Session) -> int:
    count = sum(len(a.pending_events) for a in session.pending())
    session.save()
    return count
