"""What every command shares: where the ledger is, who records, how to print, and a unit of work."""

from __future__ import annotations

import getpass
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click

RETRIES = 30
BACKOFF_BASE, BACKOFF_CAP = 0.01, 1.0  # seconds: at most ~15 s of waiting in all, on average


def lost_race(problem: BaseException) -> bool:
    """A write that may succeed if re-decided: a version already taken, or SQLite still locked."""
    from eventsourcing.persistence import IntegrityError, OperationalError

    if isinstance(problem, IntegrityError):
        return True
    text = str(problem).lower()
    return isinstance(problem, OperationalError) and ("locked" in text or "busy" in text)


def backoff(attempt: int) -> None:
    """Full jitter (a random pause up to a doubling cap) so racing writers spread out."""
    time.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** attempt)))


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
            ctx = click.get_current_context(silent=True)
            if ctx is not None:  # give its connections back when the command ends (in-process runs too)
                ctx.find_root().call_on_close(self.close)
        return self._app

    def close(self) -> None:
        if self._app is not None:
            app, self._app = self._app, None
            app.close()

    def session(self) -> Any:
        from ..ledger.session import Session

        return Session(self.app, self.campaign, self.by, self.seed)

    def write(self, decide: Callable[[Any], Any]) -> Any:
        """Run `decide(session)` and save what it recorded, all or nothing.

        Losing an optimistic-concurrency race (another writer saved the same aggregate version
        first) or finding SQLite locked past its busy timeout re-reads and re-decides after a
        jittered, growing pause, at most RETRIES times; then it is a `Conflict` (exit 1).
        Inside a batch, the batch's session collects everything and saves once at its end.
        """
        if self.batch is not None:
            return decide(self.batch)
        from ..domain.errors import Conflict

        for attempt in range(RETRIES):
            session = self.session()
            try:
                result = decide(session)
                session.save()
            except Exception as problem:
                if not lost_race(problem):
                    raise
                backoff(attempt)
                continue
            return result
        raise Conflict(f"other writers kept changing the same records at the same time; nothing was written "
                       f"after {RETRIES} tries: run the command again")

    def read(self) -> Any:
        """A session for reading (inside a batch: the batch's own, so it sees its pending events)."""
        return self.batch if self.batch is not None else self.session()
