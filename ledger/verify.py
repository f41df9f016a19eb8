"""`verify`: re-derive every recorded outcome and check each aggregate's hash chain."""

from __future__ import annotations

import functools
from array import array
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import orjson

from ..domain import systems
from ..domain.amendments import Amended
from ..domain.campaign import CampaignStarted
from ..domain.character import CharacterRegistered
from ..domain.dice import Dice
from ..domain.events import Resolution
from ..domain.rolls import DiceRolled
from . import bulk
from .history import campaign_notifications, notifications_at
from .mapper import checked_event


def stored_events(app: Any, campaign_id: UUID, share: tuple[int, int] = (0, 1),
                  catch_up: bool = True) -> Iterator[tuple[int, Any, str | None]]:
    """(position, decoded event or the decoding error, digest of its stored content) for every
    event of the campaign, oldest first; with `share=(k, n)`, only those of the k-th of n shares
    of its aggregates (by the last hex digit of their id; events gone from the log go to share 0)."""
    k, n = share
    for position, notification in campaign_notifications(app, campaign_id, catch_up):
        if notification is None:  # indexed once, gone from the log since
            if k == 0:
                yield position, MissingEvent("indexed but missing from the log (deleted after it was recorded)"), None
        elif n == 1 or (notification.originator_id.int & 0xF) % n == k:
            yield (position, *_decoded(app, notification))


def _decoded(app: Any, notification: Any) -> tuple[Any, str | None]:
    """The stored event and the digest of its stored content (for the hash check), or why it cannot be read."""
    try:
        state = app.mapper.decode_state(notification.state)
        return checked_event(notification.topic, notification.originator_id, notification.originator_version, state)
    except Exception as error:  # a tampered or corrupt row: reported, not fatal
        return error, None


class MissingEvent(Exception):
    pass


def verify(session: Any, progress: Callable[[float], None] | None = None) -> dict[str, Any]:
    """Check the campaign's whole log in this process."""
    with bulk.paused_gc():
        return _check(session.app, session.campaign.id, (0, 1), progress or (lambda _: None), catch_up=True)


PARALLEL_FROM = 20000  # events: below this, forking workers costs more than it saves


def verify_side_by_side(open_app: Callable[[], Any], campaign_id: UUID, shares: int,
                        progress: Callable[[float], None] | None = None) -> dict[str, Any]:
    """`verify` in `shares` worker processes, each checking a share of the campaign's aggregates
    (every event of an aggregate by one worker, in order, as its chain and re-derivation need); the
    report is the one a single process makes. The caller has caught the index up, and holds no
    connection while the workers are forked."""
    jobs = [functools.partial(_verify_share, open_app, campaign_id, (k, shares)) for k in range(shares)]
    reports = bulk.run(jobs, progress)
    problems = sorted((p for report in reports for p in report["problems"]), key=lambda p: p["position"])
    return {"ok": not problems, "events": sum(report["events"] for report in reports), "problems": problems}


def _verify_share(open_app: Callable[[], Any], campaign_id: UUID, share: tuple[int, int],
                  progress: Callable[[float], None]) -> dict[str, Any]:
    app = open_app()
    try:
        return _check(app, campaign_id, share, progress, catch_up=False)
    finally:
        app.close()


def _check(app: Any, campaign_id: UUID, share: tuple[int, int], progress: Callable[[float], None],
           catch_up: bool) -> dict[str, Any]:
    """The report on the events of `share` of the campaign's aggregates, progress told every 1,000."""
    checker = Verifier(_read_back(app))
    for position, event, digest in stored_events(app, campaign_id, share, catch_up):
        checker.feed(position, event, digest)
        if checker.count % 1000 == 0:
            progress(1000)
    progress(checker.count % 1000)
    return checker.report()


def _read_back(app: Any) -> Callable[[list[int]], list[Any]]:
    """The events at these log positions (those that cannot be read were reported already)."""
    def read_back(positions: list[int]) -> list[Any]:
        decoded = (_decoded(app, n)[0] for n in notifications_at(app, positions))
        return [e for e in decoded if not isinstance(e, Exception)]

    return read_back


class _Chain:
    """What the verifier holds of one aggregate: its newest hash, its state folded so far, its rule
    system (from its creation) and, for a character, where its events are (for `read_back`)."""

    __slots__ = ("head", "state", "rules", "places")

    def __init__(self) -> None:
        self.head, self.state, self.rules, self.places = "", None, None, None


class Verifier:
    """Folds a stream of events (oldest first), checking hashes, chains and outcomes as it goes.

    In bounded memory: of each character it keeps where its events are (8 bytes each), and
    `read_back(places)` reads its history back (the same events it checked) only to re-derive an
    amendment. A place is what `feed` is given as `where` (by default the event's position)."""

    def __init__(self, read_back: Callable[[list[int]], list[Any]]) -> None:
        self.read_back = read_back
        self.chains: dict[UUID, _Chain] = {}
        self._where = 0
        self._rulings: dict[tuple[Any, bytes], Any] = {}  # validated rulings by their JSON: most events share them
        self._last_ruling: tuple[Any, Any, Any] = (None, None, None)
        self.problems: list[dict[str, Any]] = []
        self.count = 0

    def feed(self, position: int, event: Any, digest: str | None = None, where: int | None = None) -> None:
        """Check the next event; `digest` is the digest of its stored content (`checked_event`), when known."""
        self.count += 1
        self._where = position if where is None else where
        if isinstance(event, MissingEvent):
            problem: str | None = str(event)
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

    def _check(self, event: Any, digest: str | None) -> str | None:
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
            problem = self._rederive(event, chain)
        event.mutate(chain.state)
        if chain.places is not None:
            chain.places.append(self._where)
        return problem

    def _rederive_amendment(self, event: Amended, chain: _Chain) -> str | None:
        from .audit import rederive_amendment

        events = self.read_back(list(chain.places or ()))  # the character's events so far
        sheet, condition, changes = rederive_amendment(chain.rules, events, event)
        if (sheet, condition, changes) != (event.sheet, event.condition, event.changes):
            return "Amended: recorded corrected state differs from the re-derived one"
        return None

    def _rederive(self, event: Any, chain: _Chain) -> str | None:
        if isinstance(event, DiceRolled):
            again = Dice.replay(event.dice).evaluate(event.notation)
            if (again.total, again.faces) != (event.total, event.faces):
                return "DiceRolled: recorded total or faces differ from the recorded dice"
            return None
        if not isinstance(event, Resolution):
            return None
        rulings = self._ruling(chain.rules, event.rulings)
        state = chain.state
        outcome = type(event).derive(state.sheet, state.condition, event.inputs, rulings, Dice.replay(event.dice))
        if outcome != event.outcome:
            return f"{type(event).__name__}: recorded outcome differs from the re-derived one"
        return None

    def _ruling(self, rules: Any, data: dict[str, Any]) -> Any:
        """`Rulings.model_validate(data)`, once per distinct rulings (validated models are frozen);
        most events carry the same rulings as the one before them."""
        last = self._last_ruling
        if last[0] is rules and last[1] == data:
            return last[2]
        key = (rules, orjson.dumps(data, option=orjson.OPT_SORT_KEYS))
        found = self._rulings.get(key)
        if found is None:
            found = self._rulings[key] = rules.Rulings.model_validate(data)
        self._last_ruling = (rules, data, found)
        return found
