"""What every command shares: the global options, and the application layer they open."""

from __future__ import annotations

import getpass
import os
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ..ledger.application.ledger import Ledger
    from ..ledger.application.session import Session
    from ..ledger.store.chronicle import Chronicle


def default_by() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user database (containers): still record something honest
        return "unknown"


class Env:
    """The global options of one `chronicle` invocation and the `Ledger` they describe, opened on
    first use and closed when the command ends (in-process runs too)."""

    def __init__(
        self, db: str, json: bool, by: str, campaign: str | None, seed: int | None = None, by_given: bool = True
    ):
        self.db, self.json, self.by, self.seed = db, json, by, seed
        self.by_given = by_given  # named by --by or $CHRONICLE_BY, not the OS user's name
        self._witness_checked = False
        self._campaign = campaign
        self._ledger: Ledger | None = None
        self._app: Chronicle | None = None  # opened alone by a read that needs no use case (`character show`)

    def options(self) -> tuple[str, bool, str, str | None, int | None]:
        return self.db, self.json, self.by, self._campaign, self.seed

    def __eq__(self, other: object) -> bool:  # two invocations with the same options are alike
        return isinstance(other, Env) and other.options() == self.options()

    __hash__ = None  # type: ignore[assignment]  # options change while a command parses

    def __repr__(self) -> str:
        return f"Env(db={self.db!r}, json={self.json}, by={self.by!r}, campaign={self._campaign!r}, seed={self.seed})"

    @classmethod
    def from_options(cls, db: str | None, json: bool, by: str | None, campaign: str | None, seed: int | None) -> Env:
        return cls(
            db=db or os.environ.get("CHRONICLE_DB") or "chronicle.db",
            json=json,
            by=by or os.environ.get("CHRONICLE_BY") or default_by(),
            campaign=campaign or os.environ.get("CHRONICLE_CAMPAIGN") or None,
            seed=seed,
            by_given=bool(by or os.environ.get("CHRONICLE_BY")),
        )

    @property
    def campaign(self) -> str | None:
        return self._campaign

    @campaign.setter
    def campaign(self, name: str | None) -> None:  # `--campaign` given after the command
        self._campaign = name
        if self._ledger is not None:
            self._ledger.campaign = name

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            from ..ledger.application.ledger import Ledger  # lazily: `--help` and completion open no ledger

            ctx = click.get_current_context(silent=True)
            writing = ctx is not None and ctx.find_root().meta.get("chronicle.reads_only") is False
            self._ledger = Ledger(
                self.db, by=self.by, campaign=self._campaign, seed=self.seed, writing=writing, by_given=self.by_given
            )
            if self._app is not None:  # the ledger opened already for reading rows: the same connections
                self._ledger._app, self._app = self._app, None
            if ctx is not None:
                ctx.find_root().call_on_close(self.close)
        return self._ledger

    @property
    def app(self) -> Chronicle:
        """The open ledger; opened without the application layer when no use case has run (a read of
        rows alone then imports no domain model)."""
        if self._ledger is not None:
            return self._ledger.app
        if self._app is None:
            from ..ledger.store.chronicle import open_ledger

            self._app = open_ledger(self.db)
            ctx = click.get_current_context(silent=True)
            if ctx is not None:
                ctx.find_root().call_on_close(self.close)
        return self._app

    @property
    def batch(self) -> Session | None:
        """The open unit of work when running a batch (its lines print nothing and save once)."""
        return self._ledger.batch if self._ledger is not None else None

    @batch.setter
    def batch(self, session: Session | None) -> None:
        self.ledger.batch = session

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
        if self._app is not None:
            app, self._app = self._app, None
            app.close()

    def session(self) -> Session:
        return self.ledger.session()

    def read(self) -> Session:
        session = self.ledger.read()
        # a read warns (--json: stderr is for errors only); a write is refused by the application layer
        if not self._witness_checked and self.batch is None and not self.json and not self.ledger.writing:
            self._witness_checked = True
            self._warn_unwitnessed(session)
        return session

    def _warn_unwitnessed(self, session: Session) -> None:
        """Say on stderr when the log no longer extends the last checkpoint this chronicle saw (a write
        would be refused; a read goes on)."""
        from ..domain.errors import ChronicleError
        from ..ledger.trust.witness import witnessed

        try:
            problem = witnessed(session.app, session.campaign.id, where=self.db)
        except ChronicleError:  # no campaign yet: nothing was witnessed
            return
        if problem is not None:
            click.echo(f"Warning: {problem.problem}", err=True)
