"""`verify`: re-derive every recorded outcome and check each aggregate's hash chain."""

from __future__ import annotations

import functools
from array import array
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

import orjson

from ...domain import systems
from ...domain.amendments import Amended
from ...domain.campaign import CampaignStarted
from ...domain.character import Character, CharacterRegistered
from ...domain.dice import Dice
from ...domain.events import Resolution
from ...domain.refold import consequences, follow, is_source, source_of
from ...domain.rolls import DiceRolled
from ...domain.text import printable
from ..application.audit import rederive
from ..application.views.history import notifications_at
from ..application.views.told import ToldCheck
from ..bulk import workers as bulk
from ..store.mapper import AGGREGATE, EVENT, StoredRow, UnknownTopic, checked_event, mapper_of, topic_kind
from ..store.snapshots import SnapshotCheck
from .digest import Against, Boundaries, SessionEnd, session_ends, session_problems
from .read_model_check import UNFOLLOWED, Folded, read_model_problems
from .signatures import SignatureCheck, in_log_order

if TYPE_CHECKING:
    from eventsourcing.persistence import Notification

    from ...domain.campaign import Campaign
    from ...domain.events import Event
    from ...domain.model import Model
    from ...domain.systems import RuleSystem
    from ..application.session import Session
    from ..store.chronicle import Chronicle

PAGE = 2000


def table_rows(app: Chronicle, share: tuple[int, int] = (0, 1)) -> Iterator[Notification]:
    """Every row of the events table, in log order, read through the library (never through a read
    model, which an attacker may have edited); with `share=(k, n)`, only the rows of the k-th of n
    shares of the aggregates (by the last hex digit of their id)."""
    k, n = share
    start = 1
    while True:
        page = app.recorder.select_notifications(start=start, limit=PAGE)
        if not page:
            return
        for row in page:
            if n == 1 or (cast(UUID, row.originator_id).int & 0xF) % n == k:  # chronicle's ids are UUIDs
                yield row
        start = page[-1].id + 1


def _decoded(app: Chronicle, notification: StoredRow) -> tuple[Event | Exception, str | None]:
    """The stored event and the digest of its stored content (for the hash check), or why it cannot be
    read (a topic that is not one of chronicle's events is never resolved: ledger/store/mapper.py)."""
    try:
        state = mapper_of(app).decode_state(notification.state)
        return checked_event(notification.topic, notification.originator_id, notification.originator_version, state)
    except Exception as error:  # a tampered or corrupt row: reported, not fatal
        return error, None


class MissingEvent(Exception):
    pass


def is_event_topic(topic: str) -> bool:
    """Whether `topic` names one of chronicle's event classes (or an old name registered for one):
    resolving it imports nothing but chronicle's domain modules (ledger/store/mapper.py, `topic_kind`)."""
    return topic_kind(topic) == EVENT


def is_aggregate_topic(topic: str) -> bool:
    return topic_kind(topic) == AGGREGATE


def verify(
    session: Session,
    progress: Callable[[float], None] | None = None,
    against: Against | None = None,
    require_signatures: bool = False,
) -> dict[str, Any]:
    """Check the campaign's whole log in this process."""
    session.app.index.catch_up()
    ends = session_ends(session.app, session.campaign.id)
    with bulk.paused_gc():
        report = _check(session.app, session.campaign.id, (0, 1), progress or (lambda _: None), against, ends, True)
    return _finish(session.app, session.campaign.id, [report], require_signatures, ends)


PARALLEL_FROM = 20000  # events: below this, forking workers costs more than it saves


def verify_side_by_side(
    open_app: Callable[[], Chronicle],
    campaign_id: UUID,
    shares: int,
    progress: Callable[[float], None] | None = None,
    require_signatures: bool = False,
) -> dict[str, Any]:
    """`verify` in `shares` worker processes, each checking a share of the campaign's aggregates
    (every event of an aggregate by one worker, in order, as its chain and re-derivation need); the
    report is the one a single process makes. The caller has caught the index up, and holds no
    connection while the workers are forked."""
    app = open_app()
    try:
        ends = session_ends(app, campaign_id)
    finally:
        app.close()
    jobs = [functools.partial(_verify_share, open_app, campaign_id, (k, shares), ends) for k in range(shares)]
    reports = bulk.run(jobs, progress)
    app = open_app()
    try:
        return _finish(app, campaign_id, reports, require_signatures, ends)
    finally:
        app.close()


def _verify_share(
    open_app: Callable[[], Chronicle],
    campaign_id: UUID,
    share: tuple[int, int],
    ends: list[SessionEnd],
    progress: Callable[[float], None],
) -> dict[str, Any]:
    app = open_app()
    try:
        with bulk.paused_gc():
            return _check(app, campaign_id, share, progress, None, ends)
    finally:
        app.close()


def _check(
    app: Chronicle,
    campaign_id: UUID,
    share: tuple[int, int],
    progress: Callable[[float], None],
    against: Against | None,
    ends: list[SessionEnd],
    helper: bool = False,
) -> dict[str, Any]:
    """The report on the rows of `share` of the aggregates that belong to the campaign: hashes,
    chains, order and outcomes, and the characters read model against the fold; with the log
    positions checked (for the index) and the heads (for a digest, and the session ends' digests).
    `helper`: signatures may be checked meanwhile in a helper process (verify in one process)."""
    bounds = Boundaries(ends)
    checker = Verifier(_read_back(app))
    told = ToldCheck(app, campaign_id)
    signatures = SignatureCheck(campaign_id, _system_of(app, campaign_id), deferred=True, helper=helper)
    # problems found before the signatures are settled, kept apart: one with an event whose signature then
    # does not verify is not reported, as none is after a problem of the same event (the told sentence)
    # or of an earlier event of its aggregate (the snapshot) -- (position, aggregate, problem, of the event only)
    unsettled: list[tuple[int, UUID, str, bool]] = []
    snapshots = SnapshotCheck(app, share)
    member: dict[UUID, bool] = {}  # aggregate -> whether it is the campaign's (known from its creation)
    versions: dict[UUID, int] = {}
    positions = array("q")
    broken: set[UUID] = set()  # aggregates with a problem already reported: their read models are not compared
    for row in table_rows(app, share):
        owner, version = cast(UUID, row.originator_id), row.originator_version
        if version == 1 or owner not in member:
            event, digest = _decoded(app, row)
            if owner not in member:  # an unreadable creation, or none: reported in every campaign's verify
                member[owner] = (
                    version > 1
                    or isinstance(event, Exception)
                    or owner == campaign_id
                    or getattr(event, "campaign_id", None) == campaign_id
                )
            if not member[owner]:
                continue
        elif member[owner]:
            event, digest = _decoded(app, row)
        else:
            continue
        positions.append(row.id)
        last = versions.get(owner, 0)
        versions[owner] = max(last, version)
        reported = len(checker.problems)
        if version != last + 1:
            checker.count += 1
            before = f"follows version {last}" if last else "has no version before it"
            checker.problems.append(
                {
                    "position": row.id,
                    "problem": f"out of order: version {version} of its aggregate"
                    f" {before} in the log (a row missing, moved or inserted)",
                }
            )
        else:
            checker.feed(row.id, event, digest)
            head = digest or str(getattr(event, "hash", ""))
            bounds.seen(row.id, owner, version, head)
            if against is not None:
                against.seen(row.id, owner, version, head, checker)
        unchanged = len(checker.problems) == reported  # (an event already named is not named again)
        if unchanged and not isinstance(event, Exception) and (unsigned := signatures.feed(row.id, event)):
            checker.problems.append({"position": row.id, "problem": unsigned})
        if len(checker.problems) > reported:
            broken.add(owner)
        elif not isinstance(event, Exception) and (retold := told.problem(row.id, event)):
            unsettled.append((row.id, owner, retold, True))
        chain = checker.chains.get(owner)
        if chain is not None and owner not in broken and isinstance(state := chain.state, Character):
            if unlike := snapshots.problem(owner, version, state):
                unsettled.append((row.id, owner, unlike, False))
        if checker.count % 1000 == 0:
            progress(1000)
    progress(checker.count % 1000)
    refused: dict[int, UUID] = {}  # position -> aggregate
    for position, owner, problem in signatures.settle():
        checker.problems.append({"position": position, "problem": problem})
        refused[position] = owner
        broken.add(owner)
    since = {owner: position for position, owner in sorted(refused.items(), reverse=True)}  # its first refused
    for position, owner, problem, own in unsettled:
        if position not in refused and (own or position < since.get(owner, position + 1)):
            checker.problems.append({"position": position, "problem": problem})
    report = checker.report()
    names = {ident: chain.state.name for ident, chain in checker.chains.items() if isinstance(chain.state, Character)}
    report["problems"] += snapshots.beyond(versions, names)
    folded = {
        ident: Folded(chain.state, chain.rules, (chain.places or [0])[-1])
        for ident, chain in checker.chains.items()
        if ident not in broken
    }
    report["problems"] += read_model_problems(app, campaign_id, folded, member, share)
    if against is not None:
        report["problems"] += against.problems(checker.count)
    report["positions"] = positions.tobytes()
    report["boundaries"] = bounds.report()
    report["signatures"] = signatures.report()
    return report


def _system_of(app: Chronicle, campaign_id: UUID) -> str | None:
    return next((system for ident, _, system in app.index.campaigns() if ident == str(campaign_id)), None)


def _name_of(app: Chronicle, campaign_id: UUID) -> str:
    return next((name for ident, name, _ in app.index.campaigns() if ident == str(campaign_id)), str(campaign_id))


def _finish(
    app: Chronicle,
    campaign_id: UUID,
    reports: list[dict[str, Any]],
    require_signatures: bool = False,
    ends: list[SessionEnd] | None = None,
) -> dict[str, Any]:
    """The shares' reports as one, with the index's positions for the campaign checked against the log's,
    the session ends' digests against the campaign's first events, and every signature's key and role in
    log order."""
    logged = array("q")
    for report in reports:
        logged.frombytes(report.pop("positions"))
    signed, unsigned, refused = in_log_order(
        [report.pop("signatures") for report in reports], _name_of(app, campaign_id), require_signatures
    )
    problems = [p for report in reports for p in report["problems"]] + refused
    unindexed = _index_problems(app, campaign_id, sorted(logged))
    sessions = session_problems(ends or [], [report.pop("boundaries") for report in reports])
    problems += unindexed or sessions  # (an index that differs from the log places session ends wrongly)
    unfollowed = [p for p in problems if p["problem"].startswith(UNFOLLOWED)]
    problems = [p for p in problems if p not in unfollowed]
    if unfollowed and not problems:  # else a consequence of the log's own problems, reported already
        problems.append(unfollowed[0])
    problems.sort(key=lambda p: p["position"])
    events = sum(report["events"] for report in reports)
    return {"ok": not problems, "events": events, "signed": signed, "unsigned": unsigned, "problems": problems}


def _index_problems(app: Chronicle, campaign_id: UUID, logged: list[int]) -> list[dict[str, Any]]:
    indexed = [at for page in app.index.position_pages(campaign_id) for at in page]
    found = [
        {"position": at, "problem": "indexed but missing from the log (deleted after it was recorded)"}
        for at in sorted(set(indexed) - set(logged))
    ]
    found += [
        {
            "position": at,
            "problem": "in the log but not in the index (the index was edited): `chronicle rebuild` restores it",
        }
        for at in sorted(set(logged) - set(indexed))
    ]
    return found


def _read_back(app: Chronicle) -> Callable[[list[int]], list[Event]]:
    """The events at these log positions (those that cannot be read were reported already)."""

    def read_back(positions: list[int]) -> list[Event]:
        decoded = (_decoded(app, n)[0] for n in notifications_at(app, positions))
        return [e for e in decoded if not isinstance(e, Exception)]

    return read_back


NO_SYSTEM = "a resolution recorded on an aggregate that is not a registered character"


class _Chain:
    """What the verifier holds of one aggregate: its newest hash, its state folded so far, its rule
    system (from its creation), for a character, where its events are (for `read_back`), and its
    latest event whose consequences are recorded after it (an attack, whose hits follow)."""

    __slots__ = ("head", "state", "rules", "places", "source")
    head: str
    state: Campaign | Character | None
    rules: RuleSystem | None
    places: array[int] | None
    source: Resolution | None

    def __init__(self) -> None:
        self.head, self.state, self.rules, self.places, self.source = "", None, None, None, None


class Verifier:
    """Folds a stream of events (oldest first), checking hashes, chains and outcomes as it goes.

    In bounded memory: of each character it keeps where its events are (8 bytes each), and
    `read_back(places)` reads its history back (the same events it checked) only to re-derive an
    amendment. A place is what `feed` is given as `where` (by default the event's position)."""

    def __init__(self, read_back: Callable[[list[int]], list[Event]]) -> None:
        self.read_back = read_back
        self.chains: dict[UUID, _Chain] = {}
        self._where = 0
        self._rulings: dict[
            tuple[RuleSystem, bytes], Model
        ] = {}  # validated rulings by their JSON: most events share them
        self._last_ruling: tuple[RuleSystem | None, dict[str, Any] | None, Model | None] = (None, None, None)
        self.problems: list[dict[str, Any]] = []
        self.count = 0

    def feed(
        self, position: int, event: Event | Exception, digest: str | None = None, where: int | None = None
    ) -> None:
        """Check the next event; `digest` is the digest of its stored content (`checked_event`), when known."""
        self.count += 1
        self._where = position if where is None else where
        if isinstance(event, MissingEvent):
            problem: str | None = str(event)
        elif isinstance(event, UnknownTopic):
            problem = f"names {printable(event.topic[:100])}, which is not one of chronicle's {event.kind}s: never read"
        elif isinstance(event, Exception):
            problem = f"cannot be read: {type(event).__name__}"
        else:
            try:
                problem = self._check(event, digest)
            except Exception as error:  # a re-derivation that cannot even run is a mismatch too
                problem = f"{type(event).__name__}: cannot be re-derived ({type(error).__name__}: {error})"
        if problem:
            self.problems.append({"position": position, "problem": problem})

    def report(self) -> dict[str, Any]:
        return {"ok": not self.problems, "events": self.count, "problems": self.problems}

    def _check(self, event: Event, digest: str | None) -> str | None:
        if digest != event.hash and event.content_hash() != event.hash:
            return "content does not match its hash (edited after it was recorded)"
        chain = self.chains.get(event.originator_id)
        if event.prev_hash != (chain.head if chain else ""):
            return "hash chain broken: prev_hash is not the previous event's hash"
        if chain is None:
            chain = self.chains[event.originator_id] = _Chain()
        chain.head = event.hash
        if event.originator_version == 1:
            chain.state = event.mutate(None)
            if isinstance(event, (CampaignStarted, CharacterRegistered)):
                chain.rules = systems.get(event.system)
            if isinstance(event, CharacterRegistered):
                chain.places = array("q", [self._where])
            return None
        if chain.state is None:
            return "event of an aggregate that has no creation event"
        if isinstance(event, Amended):
            problem = self._rederive_amendment(event, chain)
        else:
            problem = self._rederive(event, chain) or self._follows(event, chain)
        if isinstance(event, Resolution) and is_source(event):
            chain.source = event
        event.mutate(chain.state)
        if chain.places is not None:
            chain.places.append(self._where)
        return problem

    def _rederive_amendment(self, event: Amended, chain: _Chain) -> str | None:
        if chain.rules is None:
            return NO_SYSTEM
        events = self.read_back(list(chain.places or ()))  # the character's events so far
        sheet, condition, changes = rederive(chain.rules, events, event)
        if (sheet, condition, changes) != (event.sheet, event.condition, event.changes):
            return "Amended: recorded corrected state differs from the re-derived one"
        return None

    def _rederive(self, event: Event, chain: _Chain) -> str | None:
        if isinstance(event, DiceRolled):
            again = Dice.replay(event.dice).evaluate(event.notation)
            if (again.total, again.faces) != (event.total, event.faces):
                return "DiceRolled: recorded total or faces differ from the recorded dice"
            return None
        if not isinstance(event, Resolution):
            return None
        state = chain.state
        if chain.rules is None or not isinstance(state, Character):
            return NO_SYSTEM
        rulings = self._ruling(chain.rules, event.rulings)
        outcome = type(event).derive(state.sheet, state.condition, event.inputs, rulings, Dice.replay(event.dice))
        if outcome != event.outcome:
            return f"{type(event).__name__}: recorded outcome differs from the re-derived one"
        return None

    @staticmethod
    def _follows(event: Event, chain: _Chain) -> str | None:
        """A consequence that names its source (an attack's hit, its attack) is what that source's
        recorded outcome makes of it: the link is recorded, and re-derived here (domain/refold.py)."""
        if not isinstance(event, Resolution):
            return None
        found = source_of(event)
        if found is None or found[0] is None:  # none, or recorded before consequences named their source
            return None
        version, index = found
        source, state = chain.source, chain.state
        kind = type(event).__name__
        if source is None or source.originator_version != version or not isinstance(state, Character):
            return f"{kind}: names as its source version {version}, which is not the source event before it"
        blows = consequences(source)
        if index > len(blows) or follow(type(event), blows[index - 1], state.condition, event.inputs) != event.inputs:
            return f"{kind}: recorded inputs differ from consequence {index} of the {type(source).__name__} it names"
        return None

    def _ruling(self, rules: RuleSystem, data: dict[str, Any]) -> Model:
        """`Rulings.model_validate(data)`, once per distinct rulings (validated models are frozen);
        most events carry the same rulings as the one before them."""
        last = self._last_ruling
        if last[0] is rules and last[1] == data and last[2] is not None:
            return last[2]
        key = (rules, orjson.dumps(data, option=orjson.OPT_SORT_KEYS))
        found = self._rulings.get(key)
        if found is None:
            found = self._rulings[key] = rules.Rulings.model_validate(data)
        self._last_ruling = (rules, data, found)
        return found
