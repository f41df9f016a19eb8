"""The application layer: one method per use case, after the library's `examples/bankaccounts` and
cosmicpython's service layer. Each loads what it needs once, decides once and saves everything it
decided in one transaction; losing a race (another writer took the same aggregate version, or SQLite
stayed locked) re-reads and re-decides after a jittered pause. Nothing here names a rule system:
what an action is and how it is decided comes from the domain."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from eventsourcing.persistence import IntegrityError, OperationalError

from ..domain.amendments import Amended
from ..domain.campaign import Campaign
from ..domain.errors import Conflict
from ..domain.events import Resolution
from ..domain.model import Model
from ..domain.errors import BadInput
from ..domain.text import printable
from . import campaigns, characters, commands
from .app import Chronicle, open_ledger
from .digest import digest
from .commands import Command, Reply, handler_of
from .recorded import Recorded
from .session import Session

T = TypeVar("T")

RETRIES = 30
BACKOFF_BASE, BACKOFF_CAP = 0.01, 1.0  # seconds: at most ~15 s of waiting in all, on average
PESSIMISTIC_FROM = 3  # lost races after which a writer takes the write lock before it reads (SQLite)

Table = Mapping[str, list[int] | None]


def lost_race(problem: BaseException) -> bool:
    """A write that may succeed if re-decided: a version already taken, or SQLite still locked."""
    if isinstance(problem, IntegrityError):
        return True
    text = str(problem).lower()
    return isinstance(problem, OperationalError) and ("locked" in text or "busy" in text)


def backoff(attempt: int) -> None:
    """Full jitter (a random pause up to a doubling cap) so racing writers spread out."""
    time.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt)))


class Ledger:
    """A campaign ledger at `target` (a SQLite path or a PostgreSQL URL), as one author (`by`) uses it.

    `campaign` picks a campaign when the database holds several; `seed` seeds the ledger's dice
    (tests and demos). Inside a batch (`batch` is its open session) every use case joins the batch's
    unit of work, which saves once at the batch's end.

    `writing`: the caller is about to write (a rule command), so what it reads first (which campaign,
    its system) is read in the write's own transaction and by the session that then decides: one
    load of each aggregate, and nothing written by anyone else in between."""

    def __init__(
        self, target: str, *, by: str, campaign: str | None = None, seed: int | None = None, writing: bool = False
    ):
        self.target, self.by, self.campaign, self.seed = target, by, campaign, seed
        self.writing = writing
        self.batch: Session | None = None
        self._app: Chronicle | None = None
        self._held: tuple[AbstractContextManager[Any], Session] | None = None  # the open unit and its session

    @property
    def app(self) -> Chronicle:
        if self._app is None:
            self._app = open_ledger(self.target)
        return self._app

    @property
    def is_open(self) -> bool:
        return self._app is not None

    def close(self) -> None:
        self._release()
        if self._app is not None:
            app, self._app = self._app, None
            app.close()

    # units of work --------------------------------------------------------------------------

    def session(self) -> Session:
        return Session(self.app, self.campaign, self.by, self.seed)

    def read(self) -> Session:
        """A session for reading (inside a batch: the batch's own, so it sees its pending events;
        when `writing`: the session the write will decide with, in its unit)."""
        if self.batch is not None:
            return self.batch
        if not self.writing:
            return self.session()
        if self._held is None:
            unit = self.app.unit()
            unit.__enter__()
            self._held = (unit, self.session())
        return self._held[1]

    def _release(self) -> None:
        """Roll back a unit opened for reading whose write never came (a refusal, bad input)."""
        held, self._held = self._held, None
        if held is not None:
            held[0].__exit__(_Released, _Released(), None)

    def write(self, decide: Callable[[Session], T]) -> T:
        """Run `decide(session)` and save what it recorded, all or nothing (one transaction with
        what it read, on SQLite), re-deciding after a lost race at most RETRIES times; then it is a
        `Conflict` (exit 1). Inside a batch, the batch's session collects everything and saves with
        the batch."""
        if self.batch is not None:
            return decide(self.batch)
        for attempt in range(RETRIES):
            held, self._held = self._held, None
            if held is None:
                unit = self.app.unit(immediate=attempt >= PESSIMISTIC_FROM)
                unit.__enter__()
                held = (unit, self.session())
            unit, session = held
            try:
                try:
                    result = decide(session)
                    if session.save():
                        self._fold(session)
                except BaseException as problem:
                    unit.__exit__(type(problem), problem, problem.__traceback__)  # rolls back
                    raise
                unit.__exit__(None, None, None)  # commits
            except Exception as problem:
                if not lost_race(problem):
                    raise
                backoff(attempt)
                continue
            self.writing = False  # what the command reads afterwards (to print) needs no write lock
            session.take_snapshots()
            return result
        raise Conflict(
            f"other writers kept changing the same records at the same time; nothing was written "
            f"after {RETRIES} tries: run the command again"
        )

    def _fold(self, session: Session) -> None:
        """Fold what was saved now: the next command finds the read models caught up. On PostgreSQL the
        events are committed by then, so another process folding them first is no reason to decide the
        command again (its events would be saved twice): the next read catches up instead."""
        try:
            session.catch_up(rows=True)
        except Exception as problem:
            if self.app.has_units or not lost_race(problem):
                raise

    # use cases ------------------------------------------------------------------------------

    def start_campaign(self, name: str, system: str) -> Campaign:
        return self.write(lambda session: session.start_campaign(name, system))

    def add_character(
        self, name: str, stats: dict[str, str], virtues: str | None = None, is_object: bool = False
    ) -> dict[str, Any]:
        return self.write(lambda session: characters.add_character(session, name, stats, virtues, is_object))

    def start_session(self, title: str) -> dict[str, Any]:
        return self.write(lambda session: campaigns.start_session(session, title))

    def end_session(self) -> dict[str, Any]:
        return self.write(lambda session: campaigns.end_session(session, digest(session.app, session.campaign.id)))

    def set_sheet(self, name: str, stats: dict[str, str], reason: str) -> dict[str, Any]:
        """Growth (a level gained, new armour): the sheet changes from this point of the log on."""
        return self.write(lambda session: characters.set_sheet(session, name, stats, reason))

    def retire(self, name: str, reason: str) -> dict[str, Any]:
        return self.write(lambda session: characters.retire(session, name, reason))

    def rename(self, old: str, new: str, reason: str = "") -> dict[str, Any]:
        return self.write(lambda session: characters.rename(session, old, new, reason))

    def note(self, text: str, name: str | None = None) -> dict[str, Any]:
        return self.write(lambda session: characters.note(session, text, name))

    def record(
        self, name: str, action: type[Resolution], inputs: Model, table: Table | None = None, **fields: Any
    ) -> Recorded:
        """Decide `action` for the character NAME from `inputs` (and the table's dice) and record it:
        the use case behind every single-event rule command (`injure`, `rest`, `award_status`, ...)."""

        def decide(session: Session) -> Recorded:
            character = session.character(name, acting=True)
            return session.record(character, action, inputs, table, **fields)

        return self.write(decide)

    injure = record  # (tests/ledger/test_application.py)

    # commands as data ----------------------------------------------------------------------

    def execute(self, command: Command) -> Reply:
        """Run one command through its handler: loaded once, decided once, saved with the retry policy."""
        handler = handler_of(command)

        def decide(session: Session) -> Reply:
            if command.systems and session.campaign.system not in command.systems:
                raise BadInput(
                    f"{command.command} is a command of {' and '.join(command.systems)} campaigns; campaign "
                    f"{printable(session.campaign.name)} is {session.campaign.system}"
                )
            return handler(session, command)

        return self.write(decide)

    def execute_document(self, document: Mapping[str, Any]) -> Reply:
        """Run a command document (`{"command": NAME, ...}`), read as the campaign's system reads it."""
        name = document.get("command") if isinstance(document, Mapping) else None
        system = self.read().campaign.system if isinstance(name, str) and commands.needs_system(name) else None
        return self.execute(commands.parse(document, system))


class _Released(Exception):
    """Ends a unit opened for reading by rolling it back."""


__all__ = ["Amended", "Ledger", "Recorded", "lost_race"]
