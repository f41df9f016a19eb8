"""What every command shares: the global options, and the application layer they open."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from ..ledger.application.names import default_author

if TYPE_CHECKING:
    from ..ledger.application.ledger import Ledger
    from ..ledger.application.session import Session


class Env:
    """The global options of one `chronicle` invocation and the `Ledger` they describe, opened on
    first use and closed when the command ends (in-process runs too). Commands ask it and execute on it
    (`ledger.ask`, `ledger.execute`); its replies' text is laid out for this process's terminal."""

    def __init__(
        self, db: str, json: bool, by: str, campaign: str | None, seed: int | None = None, by_given: bool = True
    ):
        self.db, self.json, self.by, self.seed = db, json, by, seed
        self.by_given = by_given  # named by --by or $CHRONICLE_BY, not the OS user's name
        self._campaign = campaign
        self._ledger: Ledger | None = None

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
            by=by or os.environ.get("CHRONICLE_BY") or default_author(),
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
            from .output import presentation

            self._ledger = Ledger(
                self.db,
                by=self.by,
                campaign=self._campaign,
                seed=self.seed,
                writing=writing,
                by_given=self.by_given,
                presentation=presentation(lambda: self.json),
                warn=self._warn,
            )
            if ctx is not None:
                ctx.find_root().call_on_close(self.close)
        return self._ledger

    @property
    def batch(self) -> Session | None:
        """The open unit of work when running a batch (its lines print nothing and save once)."""
        return self._ledger.batch if self._ledger is not None else None

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()

    def read(self) -> Session:
        """The ledger's reading session: `winter --ask` derives the winter with it to know which of the
        table's dice to ask for next (every other command reads through `ledger.ask`)."""
        return self.ledger.read()

    def _warn(self, problem: str) -> None:
        """What a reader should know before believing what it reads (the log no longer extends the last
        checkpoint this chronicle saw: a write would be refused), on stderr; not with --json, whose stderr
        is for errors only."""
        if not self.json:
            click.echo(f"Warning: {problem}", err=True)
