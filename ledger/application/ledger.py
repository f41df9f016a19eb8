"""The application layer: one method per use case, after the library's `examples/bankaccounts` and
cosmicpython's service layer. Each loads what it needs once, decides once and saves everything it
decided in one transaction; losing a race (another writer took the same aggregate version, or SQLite
stayed locked) re-reads and re-decides after a jittered pause. Nothing here names a rule system:
what an action is and how it is decided comes from the domain."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from ...domain.aggregate import SEALING
from ...domain.errors import BadInput, BadSignature, ChronicleError, Forbidden, Refusal
from ...domain.text import printable
from ..store.chronicle import Chronicle, open_ledger
from . import current
from .reply import Reply
from .retries import PESSIMISTIC_FROM, lost_race, retried
from .text import Presentation

# What only a write (or a read that folds) needs is imported where it is first needed: a front door's
# `character show` imports this module and reads one row, without a domain or pydantic model
# (tests/perf/test_start_up.py).
if TYPE_CHECKING:
    from ...domain.events import Signed
    from ..trust.signing import Signer
    from ..trust.tree import Head
    from .commands import Command
    from .queries import Query
    from .session import Session

T = TypeVar("T")
JOIN = "participant join"  # asked from another device, by an invitation's authority


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
        presentation: Presentation | None = None,
        warn: Callable[[str], None] | None = None,
        as_participant: bool = False,
    ):
        self.target, self.by, self.campaign, self.seed = target, by, campaign, seed
        self.writing = writing
        # `by` named by the user (not their OS name): a participant's identity then must agree with it
        self.by_given = by_given
        # `by` is a participant whose key the identity in use must be (`mcp --as NAME`), whatever their role
        self.as_participant = as_participant
        self._identity = identity
        self.presentation = presentation or Presentation()  # how the replies' text for people is laid out
        self.warn = warn  # says what a reader should know before believing what it reads (see `read`)
        self._warned = False
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
    def holding(self) -> bool:
        """Whether a unit of work is open for the write about to come (what it read is in it)."""
        return self._held is not None

    @property
    def is_open(self) -> bool:
        return self._app is not None

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *raised: object) -> None:
        self.close()

    def close(self) -> None:
        self._release()
        if self._app is not None:
            app, self._app = self._app, None
            app.close()

    # units of work --------------------------------------------------------------------------

    def session(self, campaign: str | None = None) -> Session:
        """A session of its own, on CAMPAIGN (by name; else the ledger's)."""
        from .session import Session

        return Session(self.app, campaign or self.campaign, self.by, self.seed)

    def read(self) -> Session:
        """A session for reading (inside a batch: the batch's own, so it sees its pending events;
        when `writing`: the session the write will decide with, in its unit)."""
        if self.batch is not None:
            return self.batch
        if not self.writing:
            session = self.session()
            self._check_witnessed(session)
            return session
        if self._held is None:
            unit = self.app.unit()
            unit.__enter__()
            self._held = (unit, self.session())
        return self._held[1]

    def check_witnessed(self) -> None:
        """Say (`warn`), once, when the log no longer extends the last checkpoint this chronicle saw of the
        campaign (a write would be refused; a read goes on): what a reader is told on its first read."""
        self._check_witnessed(self.session())

    def _check_witnessed(self, session: Session) -> None:
        from ..trust.witness import witnessed

        if self.warn is None or self._warned:
            return
        self._warned = True
        try:
            problem = witnessed(session.app, session.campaign.id, where=self.target)
        except ChronicleError:  # no campaign yet: nothing was witnessed
            return
        if problem is not None and self.warn is not None:
            self.warn(problem.problem)

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
        result, session = retried(
            lambda attempt: self._attempt(decide, saved, attempt),
            lambda tries: (
                f"other writers kept changing the same records at the same time; nothing was written "
                f"after {tries} tries: run the command again"
            ),
        )
        self.writing = False  # what the command reads afterwards (to print) needs no write lock
        session.take_snapshots()
        return result

    def _attempt(
        self, decide: Callable[[Session], T], saved: Callable[[Session], None] | None, attempt: int
    ) -> tuple[T, Session]:
        """One try of `write`, in a transaction of its own (the unit a read for this write opened, at first),
        committed when it returns and rolled back when it raises."""
        held, self._held = self._held, None
        if held is None:
            unit = self.app.unit(immediate=attempt >= PESSIMISTIC_FROM)
            unit.__enter__()
            held = (unit, self.session())
        unit, session = held
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
        return result, session

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

    def execute(self, command: Command, signed: Signed | None = None, verified: UUID | None = None) -> Reply:
        """Run one command through its handler: loaded once, decided once, saved with the retry policy.
        The participant whose key signs it (the identity in use, or SIGNED's key: a browser's) must be
        allowed to; every event it records keeps the signature, and its nonce is spent in the campaign
        (a nonce spent before is refused, whatever the front door: ledger/trust/nonces.py). VERIFIED: the
        campaign SIGNED's signature was checked for already (a server checks it before it reads the
        document): not checked again."""

        from ..trust.nonces import seeded_nonce
        from ..trust.signing import seal_with, sign
        from ..trust.tree import extend
        from ..trust.witness import note_head
        from .commands import handler_of
        from .fair_dice import naming_seeds

        handler = handler_of(command)
        if command.chooses:
            return self._choose(command, signed)
        dry_run = self._refuse_early(command, signed)

        written: list[UUID] = []  # the campaign written to, once decided
        seeds: list[dict[str, Any]] = []  # the fair dice seeds it took (ledger/application/fair_dice.py)

        def decide(session: Session) -> Reply:
            key = signed.key if signed is not None else self.identity.public_key_text
            if not command.opens_campaign:
                self._admit(session, command, key)
            session.key = key
            session.device_seed, session.from_device, session.fair_taken = command.device_seed, signed is not None, []
            session.touching()  # (not every aggregate held: a batch's session may hold thousands)
            unsealed = SEALING.set(False)  # each event is sealed once, by `seal_with`, with its signature
            try:
                reply = handler(session, command)
            finally:
                SEALING.reset(unsealed)
            campaign = session.campaign.id
            if signed is not None:
                refuse_forged(session, command, signed, verified)
            if dry_run:
                answer_dry(session, command, reply)
            signatures: dict[UUID, Signed] = {} if signed is None else {campaign: signed}
            touched = session.touched()

            def signed_for(of: UUID) -> Signed:  # (a replay's fork writes into a campaign of its own)
                if of not in signatures:
                    if signed is not None:
                        raise BadSignature("a signed document writes into its own campaign only")
                    # a seeded ledger (tests, the demo) signs with nonces as reproducible as its dice
                    nonce = None if session.seed is None else seeded_nonce(session.seed, of, touched)
                    signatures[of] = sign(self.identity, of, command.document(), nonce)
                return signatures[of]

            seal_with(touched, signed_for)
            written[:], seeds[:] = [campaign], session.fair_taken
            return reply

        heads: list[Head] = []

        def grow(session: Session) -> None:  # the stored Merkle tree takes the events in their transaction
            campaign = written[0]
            own = {
                at: event.hash
                for at, event, *_ in session.saved
                if getattr(session.held(event.originator_id), "campaign_id", event.originator_id) == campaign
            }
            heads[:] = [extend(session.app, campaign, own, own=True)]

        chose: list[UUID | None] = []

        def noted(session: Session) -> None:
            chose[:] = [session.chose]
            if self.batch is None:
                grow(session)

        try:
            reply = self.write(decide, noted)
        except _DryRun as answered:
            self.writing = False
            return answered.reply
        if heads:
            note_head(self.app, written[0], heads[0], where=self.target)  # the head it has now seen
        if chose and chose[0] is not None:  # `campaign new`, or a first write to the campaign started last
            current.choose(self.target, chose[0])
        return naming_seeds(reply, seeds)

    def _admit(self, session: Session, command: Command, key: str) -> None:
        """KEY's participant may give COMMAND in the session's campaign, whose log still extends what this
        chronicle saw (a log rewritten behind its back takes no more writes)."""
        from ..trust.witness import refuse_unwitnessed

        self._authorise(session, command, key)
        if self.batch is None:
            refuse_unwitnessed(session.app, session.campaign.id, where=self.target)

    def _refuse_early(self, command: Command, signed: Signed | None) -> bool:
        """What is refused before anything is read; whether COMMAND is a dry run."""
        dry_run = bool(getattr(command, "dry_run", False))
        if dry_run and self.batch is not None:
            raise BadInput(f"{command.command}: a dry run answers on its own, not inside a batch")
        if signed is not None and command.opens_campaign and command.command != JOIN:
            raise Forbidden(f"{command.command} is run on the ledger's own machine, not sent from another device")
        return dry_run

    def _choose(self, command: Command, signed: Signed | None) -> Reply:
        """`campaign use`: the user's own choice of campaign, noted in their folder; no log records it."""
        if signed is not None:
            raise BadInput(f"{command.command} is a choice of the device that runs it: there is nothing to send")
        from .commands import handler_of

        session = self.read() if self.batch is not None else self.session()
        reply = handler_of(command)(session, command)
        if session.chose is not None and self.batch is None:  # (a batch's is noted once it commits)
            current.choose(self.target, session.chose)
        return reply

    def catch_up(self) -> None:
        """Bring the read models up to date with the log (a server's, before its first page: a fresh
        import may have left them far behind)."""
        app = self.app
        app.index.catch_up()
        app.characters.catch_up()
        app.changes.catch_up()

    # queries as data -----------------------------------------------------------------------

    def ask(self, query: Query) -> Reply:
        """Answer one query through its handler: what it reads, as the same `Reply` a command gives (its
        JSON document and its text for people). Inside a batch it reads what the batch has decided so
        far; a read never takes the write lock."""
        from .queries import handler_of

        return handler_of(query)(self, query)

    # a batch: many commands, one unit of work ---------------------------------------------

    def batch_opened(self, session: Session) -> None:
        """A batch is a write: refused before its first line when the log no longer extends the last
        checkpoint this chronicle saw of its campaign (none yet: a batch may start one)."""
        from ..trust.witness import refuse_unwitnessed

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
        from ..trust.tree import extend

        if not session.saved:
            return
        hashes = {at: event.hash for at, event, *_ in session.saved}
        owners = {event.originator_id for _, event, *_ in session.saved}
        for campaign in {getattr(session.held(owner), "campaign_id", owner) for owner in owners}:
            self._batch_heads[campaign] = extend(session.app, campaign, hashes)

    def batch_committed(self, session: Session | None = None) -> None:
        from ..trust.witness import note_head

        heads, self._batch_heads = self._batch_heads, {}
        for campaign, head in heads.items():
            note_head(self.app, campaign, head, where=self.target)
        if session is not None and session.chose is not None:
            current.choose(self.target, session.chose)

    def _authorise(self, session: Session, command: Command, key: str) -> None:
        from ...domain.participants import authorise
        from .commands import elsewhere

        campaign = session.campaign
        if command.systems and campaign.system not in command.systems:
            raise BadInput(
                f"{command.command} is a command of {' and '.join(command.systems)} campaigns; campaign "
                f"{printable(campaign.name)} is {campaign.system}" + elsewhere(command.command, campaign.system)
            )
        acting = command.acts_on()
        if acting is not None:  # a character the campaign lacks is bad input, whoever asks (not a role refusal)
            session.character_id(acting)
        participant = authorise(campaign.participants, campaign.name, key, command.role, acting, command.command)
        if self.as_participant and (participant is None or participant.name.casefold() != self.by.casefold()):
            whose = "no participant's" if participant is None else f"{participant.name}'s"
            raise Forbidden(
                f"acting as {printable(self.by)}, but the identity in use is {whose} key in campaign "
                f"{printable(campaign.name)}: a participant acts with their own key"
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

    def execute_document(
        self, document: Mapping[str, Any], signed: Signed | None = None, verified: UUID | None = None
    ) -> Reply:
        """Run a command document (`{"command": NAME, ...}`), read as the campaign's system reads it;
        SIGNED: as its participant signed it on another device (the table view, an assistant), VERIFIED
        as `execute` says."""
        return self.execute(self.read_document(document, signed), signed, verified)

    def read_document(self, document: Mapping[str, Any], signed: Signed | None = None) -> Command:
        """A command document read as the campaign's system reads it (bad input if it fits no command);
        one that starts a campaign is refused when SIGNED on another device (a join aside)."""
        from . import commands

        name = document.get("command") if isinstance(document, Mapping) else None
        system = None
        if isinstance(name, str) and commands.needs_system(name):  # from the campaign's row: nothing is loaded
            from .queries import CurrentCampaign

            system = self.ask(CurrentCampaign()).document["system"]
        command = commands.parse(document, system)
        if signed is not None and command.opens_campaign and command.command != JOIN:
            raise Forbidden(f"{command.command} is run on the ledger's own machine, not sent from another device")
        return command


def signs(signed: Signed, command: Command) -> bool:
    """Whether SIGNED's document asks for COMMAND (the same command and values, defaults aside)."""
    from . import commands

    try:
        return commands.parse(signed.document, command.systems[0] if command.systems else None) == command
    except BadInput:
        return False


class _Released(Exception):
    """Ends a unit opened for reading by rolling it back."""


class _DryRun(Exception):  # noqa: N818  (not a failure: a dry run's answer, leaving its unit of work unsaved)
    def __init__(self, reply: Reply):
        super().__init__("dry run")
        self.reply = reply


__all__ = ["Ledger", "lost_race"]  # (`lost_race`: ledger/application/retries.py's, where it was once defined)


def answer_dry(session: Session, command: Command, reply: Reply) -> None:
    """A dry run's answer, ending its unit of work unsaved (nothing written)."""
    if session.fair_taken:  # its faces would show seeds no event has revealed yet
        raise Refusal(
            f"a dry run of {command.command} that needs the ledger's dice cannot be shown before "
            "they are rolled: give the table's dice (roll NAME=FACES), or record it"
        )
    raise _DryRun(Reply.of(reply.document, reply.text))


def refuse_forged(session: Session, command: Command, signed: Signed, verified: UUID | None) -> None:
    """A document from another device: this command's, signed for the session's campaign (checked here
    unless VERIFIED names that campaign: a server checked the signature before it read the document), and
    its nonce new in the campaign (spent now)."""
    from ..trust.nonces import refuse_spent
    from ..trust.signing import valid

    campaign = session.campaign.id
    if not signs(signed, command) or (campaign != verified and not valid(signed, campaign)):
        raise BadSignature("the signature does not verify for this document, nonce and campaign")
    refuse_spent(session.app, campaign, signed.nonce)
