"""Where an assistant's calls meet the ledger: the global options of `chronicle mcp`, one `Ledger` per
call (its own transaction, which sees what other processes wrote), and errors as the CLI words them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...domain.errors import ChronicleError
from ...domain.text import safe_line
from ...ledger.store.targets import must_exist

if TYPE_CHECKING:
    from ...ledger.application.ledger import Ledger


@dataclass(frozen=True)
class Failure:
    """A call that failed as the CLI's command would: its error code, its one-line message, its exit status."""

    code: str
    message: str
    exit_code: int

    def document(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


@dataclass
class Desk:
    """The options `chronicle mcp` was started with (`--db`, `--by`, `--campaign`), as the CLI reads them."""

    db: str
    by: str
    campaign: str | None
    by_given: bool
    seed: int | None = None
    # one call at a time: each opens and closes its own ledger, and the identity is made on first need
    _turn: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @contextmanager
    def ledger(self, writing: bool = False, campaign: str | None = None) -> Iterator[Ledger]:
        """A ledger for one call, closed after it (a write not committed is rolled back). Reading never
        creates a database file: a SQLite path that does not exist is bad input, as for the CLI's reads."""
        from ...ledger.application.ledger import Ledger

        with self._turn:
            if not writing:
                must_exist(self.db)
            ledger = Ledger(
                self.db,
                by=self.by,
                campaign=campaign or self.campaign,
                seed=self.seed,
                writing=writing,
                by_given=self.by_given,
            )
            try:
                yield ledger
            finally:
                ledger.close()


def failure(problem: Exception) -> Failure:
    """PROBLEM as the CLI reports it (cli/main.py): exit 1 a refusal, exit 2 bad input, never a traceback."""
    from pydantic import ValidationError

    from ...ledger.application.ledger import lost_race

    if isinstance(problem, ChronicleError):
        return Failure(problem.code, safe_line(str(problem)), problem.exit_code)
    if isinstance(problem, ValidationError):
        from ..actions import first_error

        return Failure("bad_input", safe_line(first_error(problem)), 2)
    if isinstance(problem, OverflowError):
        return Failure("bad_input", "a number is beyond the 64-bit limit (at most 9223372036854775807)", 2)
    if lost_race(problem):
        message = "another writer changed the same records at the same time; nothing was written: run it again"
        return Failure("conflict", message, 1)
    return Failure("internal", safe_line(f"{type(problem).__name__}: {problem}".splitlines()[0]), 2)
