"""What every command shares: where the ledger is, who records, how to print, and a unit of work."""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

RETRIES = 5


def default_by() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user database (containers): still record something honest
        return "unknown"


@dataclass
class Env:
    db: str
    json: bool
    by: str
    campaign: str | None
    seed: int | None = None
    _app: Any = field(default=None, repr=False)
    batch: Any = field(default=None, repr=False)  # the open Session when running a batch

    @classmethod
    def from_options(cls, db: str | None, json: bool, by: str | None, campaign: str | None, seed: int | None) -> Env:
        return cls(
            db=db or os.environ.get("CHRONICLE_DB") or "chronicle.db",
            json=json,
            by=by or os.environ.get("CHRONICLE_BY") or default_by(),
            campaign=campaign or os.environ.get("CHRONICLE_CAMPAIGN") or None,
            seed=seed,
        )

    @property
    def app(self) -> Any:
        if self._app is None:
            from ..ledger.app import open_ledger

            self._app = open_ledger(self.db)
        return self._app

    def session(self) -> Any:
        from ..ledger.session import Session

        return Session(self.app, self.campaign, self.by, self.seed)

    def write(self, decide: Callable[[Any], Any]) -> Any:
        """Run `decide(session)` and save what it recorded, all or nothing.

        Losing an optimistic-concurrency race re-reads and re-decides, a bounded number of times.
        Inside a batch, the batch's session collects everything and saves once at its end.
        """
        if self.batch is not None:
            return decide(self.batch)
        from eventsourcing.persistence import IntegrityError

        from ..domain.errors import Conflict

        for _ in range(RETRIES):
            session = self.session()
            result = decide(session)
            try:
                session.save()
            except IntegrityError:
                continue
            return result
        raise Conflict(f"another writer kept changing the same records; gave up after {RETRIES} tries")

    def read(self) -> Any:
        """A session for reading (inside a batch: the batch's own, so it sees its pending events)."""
        return self.batch if self.batch is not None else self.session()
