"""The table view's ledger: every page, and the live updates, ask the application layer's queries
(`ledger/application/queries/pages.py`) through one `Ledger`, one at a time: the read models keep folded
state in memory, and the library's SQLite connections are not to be shared between threads mid-query.
A storage fault is one line (`LedgerUnavailable`), and the next question opens the ledger afresh."""

from __future__ import annotations

import threading
from pathlib import Path

from ...domain.errors import BadInput, ChronicleError
from ...ledger.application.addresses import is_postgres
from ...ledger.application.failures import first_line
from ...ledger.application.ledger import Ledger
from ...ledger.application.opened import hide_password
from ...ledger.application.queries import Query
from ...ledger.application.reply import Reply


class LedgerUnavailable(Exception):
    """The ledger cannot be opened or read: one line for the terminal and the error page."""


class Reading:
    def __init__(self, target: str):
        self.target = target
        self._ledger: Ledger | None = None
        self._lock = threading.Lock()

    def check_target(self) -> None:
        """Serving never creates a ledger: a SQLite file that is not there is bad input."""
        if not is_postgres(self.target) and not Path(self.target).is_file():
            raise BadInput(f"no ledger at {self.target}: give an existing database with --db")

    @property
    def postgres(self) -> bool:
        return is_postgres(self.target)

    def ask(self, query: Query) -> Reply:
        """QUERY's reply, its document made under the lock (a refusal or bad input raises as it is)."""
        with self._lock:
            try:
                reply = self._open().ask(query)
                _ = reply.document
                return reply
            except (ChronicleError, LedgerUnavailable):
                raise
            except Exception as problem:
                self._drop()
                raise LedgerUnavailable(self._unreadable(problem)) from None

    def warm(self) -> None:
        """Bring the read models up to date before the first page (a fresh import may be far behind)."""
        with self._lock:
            try:
                self._open().catch_up()
            except LedgerUnavailable:
                raise
            except Exception as problem:
                self._drop()
                raise LedgerUnavailable(self._unreadable(problem)) from None

    def close(self) -> None:
        with self._lock:
            self._drop()

    def _open(self) -> Ledger:
        if self._ledger is None:
            self._ledger = Ledger(self.target, by="serve")
        try:
            _ = self._ledger.app
        except ChronicleError as problem:  # unreachable, damaged, or the wrong key: one line
            self._ledger = None
            raise LedgerUnavailable(str(problem)) from None
        return self._ledger

    def _drop(self) -> None:
        ledger, self._ledger = self._ledger, None
        if ledger is not None:
            try:
                ledger.close()
            except Exception:  # already broken: nothing more to give back
                pass

    def _unreadable(self, problem: Exception) -> str:
        return hide_password(f"cannot read the ledger: {first_line(problem)}", self.target)
