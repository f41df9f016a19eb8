"""Where an assistant's calls meet the ledger: the global options of `chronicle mcp`, one `Ledger` per
call (its own transaction, which sees what other processes wrote), and errors as every front door says them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...ledger.application.addresses import must_exist
from ...ledger.application.failures import Failure
from ...ledger.application.failures import failure as said

if TYPE_CHECKING:
    from ...ledger.application.ledger import Ledger


@dataclass
class Desk:
    """The options `chronicle mcp` was started with (`--db`, `--by`, `--campaign`, `--as`), as the CLI reads them."""

    db: str
    by: str
    campaign: str | None
    by_given: bool
    seed: int | None = None
    acting_as: str | None = None  # `--as NAME`: the participant whose key the identity in use must be
    # one call at a time: each opens and closes its own ledger, and the identity is made on first need
    _turn: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @contextmanager
    def ledger(self, writing: bool = False, campaign: str | None = None) -> Iterator[Ledger]:
        """A ledger for one call, closed after it (a write not committed is rolled back). Reading never
        creates a database file: a SQLite path that does not exist is bad input, as for the CLI's reads."""
        from ...ledger.application.ledger import Ledger
        from ..output import presentation

        with self._turn:
            if not writing:
                must_exist(self.db)
            ledger = Ledger(
                self.db,
                by=self.acting_as or self.by,
                campaign=campaign or self.campaign,
                seed=self.seed,
                writing=writing,
                by_given=self.by_given or self.acting_as is not None,
                presentation=presentation(),  # the text the CLI's command prints when piped
                as_participant=self.acting_as is not None,
            )
            try:
                yield ledger
            finally:
                ledger.close()


def failure(problem: Exception) -> Failure:
    """PROBLEM as every front door says it (ledger/application/failures.py): exit 1 a refusal, exit 2 bad
    input, never a traceback."""
    return said(problem)
