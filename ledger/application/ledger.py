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
from uuid import UUID

from eventsourcing.persistence import IntegrityError, OperationalError

from ...domain.errors import BadInput, BadSignature, ChronicleError, Conflict, Forbidden
from ...domain.events import Signed
from ...domain.participants import authorise
from ...domain.text import printable
from ..store.chronicle import Chronicle, open_ledger
from ..trust.nonces import nonce_book
from ..trust.signing import Signer, seal_with, sign, valid
from ..trust.tree import Head, extend
from ..trust.witness import note_head, refuse_unwitnessed
from . import commands
from .commands import Command, Reply, elsewhere, handler_of
from .session import Session

T = TypeVar("T")

RETRIES = 30
BACKOFF_BASE, BACKOFF_CAP = 0.01, 1.0  # seconds: at most ~15 s of waiting in all, on average
PESSIMISTIC_FROM = 3  # lost races after which a writer takes the write lock before it reads (SQLite)

Table = Mapping[str, list[int] | None]


def lost_race(problem: BaseException) -> bool:
    """A write that may succeed if re-decided: a version already taken, SQLite still locked, or
    PostgreSQL's deadlock detector choosing this transaction (all of it rolled back)."""
    if isinstance(problem, IntegrityError):
        return True
    text = str(problem).lower()
    return isinstance(problem, OperationalError) and any(word in text for word in ("locked", "busy", "deadlock"))


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
        self,
        target: str,
        *,
        by: str,
        campaign: str | None = None,
        seed: int | None = None,
        writing: bool = False,
        by_given: bool = True,
        identity: Signer | None = None,
    ):
        self.target, self.by, self.campaign, self.seed = target, by, campaign, seed
        self.writing = writing
        # `by` named by the user (not their OS name): a participant's identity then must agree with it
        self.by_given = by_given
        self._identity = identity
        self.batch: Session | None = None
        self._app: Chronicle | None = None
        self._held: tuple[AbstractContextManager[Any], Session] | None = None  # the open unit and its session
        self._batch_heads: dict[UUID, Head] = {}  # a batch's campaigns: their trees' heads, noted once it commits

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

    def write(self, decide: Callable[[Session], T], saved: Callable[[Session], None] | None = None) -> T:
        """Run `decide(session)` and save what it recorded, all or nothing (one transaction with what
        it read and the read models' catching up, and `saved(session)` after them), re-deciding after a
        lost race at most RETRIES times; then it is a `Conflict` (exit 1). Inside a batch, the batch's
        session collects everything and saves with the batch."""
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
                        if saved is not None:
                            saved(session)
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
        """Fold what was saved now, in the same transaction: the next command finds the read models caught
        up, and a fold that fails (an outcome beyond what they can hold) fails the command before anything
        is committed, never after (on PostgreSQL a fold after the commit that failed would fail every
        later command too). A character left with a number beyond 64 bits (damage added up) is
        bad input, even where its row is folded from the log, which keeps what the log holds."""
        session.catch_up(rows=True)
        self.app.characters.check(
            session.held(ident) for ident in {event.originator_id for _, event, *_ in session.saved}
        )

    # commands as data ----------------------------------------------------------------------

    @property
    def identity(self) -> Signer:
        """Whose key signs what this ledger records: the user's (made on first need), unless given."""
        if self._identity is None:
            from ..trust.identity import load_or_create

            self._identity = load_or_create()
        return self._identity

    def execute(self, command: Command, signed: Signed | None = None) -> Reply:
        """Run one command through its handler: loaded once, decided once, saved with the retry policy.
        The participant whose key signs it (the identity in use, or SIGNED's key: a browser's) must be
        allowed to; every event it records keeps the signature."""
        handler = handler_of(command)

        written: list[UUID] = []  # the campaign written to, once decided

        def decide(session: Session) -> Reply:
            key = signed.key if signed is not None else self.identity.public_key_text
            if not command.opens_campaign:
                self._authorise(session, command, key)
                if self.batch is None:  # a log rewritten behind this chronicle's back takes no more writes
                    refuse_unwitnessed(session.app, session.campaign.id, where=self.target)
            session.key = key
            session.touching()  # (not every aggregate held: a batch's session may hold thousands)
            reply = handler(session, command)
            campaign = session.campaign.id
            if signed is not None:  # from another device: its document is this command's, signed, and new
                if not signs(signed, command) or not valid(signed, campaign):
                    raise BadSignature("the signature does not verify for this document, nonce and campaign")
                nonce_book(session.app).spend(signed.key, signed.nonce)
            # a seeded ledger (tests, the demo) signs with nonces as reproducible as its dice
            nonce = None if session.seed is None else f"seed-{session.seed}"
            signatures: dict[UUID, Signed] = {} if signed is None else {campaign: signed}

            def signed_for(of: UUID) -> Signed:  # (a replay's fork writes into a campaign of its own)
                if of not in signatures:
                    if signed is not None:
                        raise BadSignature("a signed document writes into its own campaign only")
                    signatures[of] = sign(self.identity, of, command.document(), nonce)
                return signatures[of]

            seal_with(session.touched(), signed_for)
            written[:] = [campaign]
            return reply

        heads: list[Head] = []

        def grow(session: Session) -> None:  # the stored Merkle tree takes the events in their transaction
            heads[:] = [extend(session.app, written[0], {at: event.hash for at, event, *_ in session.saved})]

        reply = self.write(decide, None if self.batch is not None else grow)
        if heads:
            note_head(self.app, written[0], heads[0], where=self.target)  # the head it has now seen
        return reply

    # a batch: many commands, one unit of work ---------------------------------------------

    def batch_opened(self, session: Session) -> None:
        """A batch is a write: refused before its first line when the log no longer extends the last
        checkpoint this chronicle saw of its campaign (none yet: a batch may start one)."""
        self._batch_heads = {}
        try:
            campaign = session.campaign.id
        except ChronicleError:
            return
        refuse_unwitnessed(session.app, campaign, where=self.target)

    def batch_saved(self, session: Session) -> None:
        """Grow, in the batch's transaction, the stored tree of each campaign the session's last save
        wrote to, from the hashes it saved (as a command grows it by its own events); each campaign's
        newest head is noted as seen once the batch commits (`batch_committed`)."""
        if not session.saved:
            return
        hashes = {at: event.hash for at, event, *_ in session.saved}
        owners = {event.originator_id for _, event, *_ in session.saved}
        for campaign in {getattr(session.held(owner), "campaign_id", owner) for owner in owners}:
            self._batch_heads[campaign] = extend(session.app, campaign, hashes)

    def batch_committed(self) -> None:
        heads, self._batch_heads = self._batch_heads, {}
        for campaign, head in heads.items():
            note_head(self.app, campaign, head, where=self.target)

    def _authorise(self, session: Session, command: Command, key: str) -> None:
        campaign = session.campaign
        if command.systems and campaign.system not in command.systems:
            raise BadInput(
                f"{command.command} is a command of {' and '.join(command.systems)} campaigns; campaign "
                f"{printable(campaign.name)} is {campaign.system}" + elsewhere(command.command, campaign.system)
            )
        participant = authorise(
            campaign.participants, campaign.name, key, command.role, command.acts_on(), command.command
        )
        if participant is None:
            return
        if not self.by_given:
            session.by = participant.name
        elif participant.role == "player" and session.by.casefold() != participant.name.casefold():
            raise Forbidden(
                f"the identity in use is {printable(participant.name)}'s, a player, who records as themself, "
                f"not as {printable(session.by)}"
            )

    def execute_document(self, document: Mapping[str, Any], signed: Signed | None = None) -> Reply:
        """Run a command document (`{"command": NAME, ...}`), read as the campaign's system reads it;
        SIGNED: as its participant signed it on another device (the table view, an assistant)."""
        name = document.get("command") if isinstance(document, Mapping) else None
        system = self.read().campaign.system if isinstance(name, str) and commands.needs_system(name) else None
        return self.execute(commands.parse(document, system), signed)


def signs(signed: Signed, command: Command) -> bool:
    """Whether SIGNED's document asks for COMMAND (the same command and values, defaults aside)."""
    try:
        return commands.parse(signed.document, command.systems[0] if command.systems else None) == command
    except BadInput:
        return False


class _Released(Exception):
    """Ends a unit opened for reading by rolling it back."""


__all__ = ["Ledger", "lost_race"]
