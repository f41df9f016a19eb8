"""`verify`: re-derive every recorded outcome and check each aggregate's hash chain."""

from __future__ import annotations

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
from ..domain.rolls import DiceRolled, roll
from .history import notifications_at
from .mapper import event_from_state, stored_digest


def stored_events(session: Any) -> Iterator[tuple[int, Any]]:
    """(position, decoded event or the decoding error) for every event of the campaign, oldest first."""
    app, campaign = session.app, session.campaign
    app.index.catch_up()
    positions = [row[0] for row in app.index.log(campaign.id)]
    found = set()
    for notification in notifications_at(app, positions):
        found.add(notification.id)
        yield notification.id, _decoded(app, notification)
    for position in sorted(set(positions) - found):  # indexed once, gone from the log since
        yield position, MissingEvent("indexed but missing from the log (deleted after it was recorded)")


def _decoded(app: Any, notification: Any) -> Any:
    """The stored event (keeping the digest of its stored state for the hash check), or why it cannot be read."""
    try:
        return event_from_state(notification.topic, notification.originator_id, notification.originator_version,
                                app.mapper.decode_state(notification.state), digest=True)
    except Exception as error:  # a tampered or corrupt row: reported, not fatal
        return error


class MissingEvent(Exception):
    pass


def verify(session: Any, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    checker = _StoreVerifier(session.app)
    for position, event in stored_events(session):
        checker.feed(position, event)
        if progress:
            progress(1)
    return checker.report()


class Verifier:
    """Folds a stream of events (oldest first), checking hashes, chains and outcomes as it goes."""

    def __init__(self) -> None:
        self.heads: dict[UUID, str] = {}
        self.states: dict[UUID, Any] = {}
        self.histories: dict[UUID, list[Any]] = {}  # character streams, for re-deriving amendments
        self.rules: Any = None
        self._rulings: dict[tuple[Any, bytes], Any] = {}  # validated rulings by their JSON: most events share them
        self.problems: list[dict[str, Any]] = []
        self.count = 0

    def feed(self, position: int, event: Any) -> None:
        self.count += 1
        if isinstance(event, MissingEvent):
            problem: str | None = str(event)
        elif isinstance(event, Exception):
            problem = f"cannot be read: {type(event).__name__}"
        else:
            try:
                problem = self._check(event)
            except Exception as error:  # a re-derivation that cannot even run is a mismatch too
                problem = f"{type(event).__name__}: cannot be re-derived ({type(error).__name__}: {error})"
        if problem:
            self.problems.append({"position": position, "problem": problem})

    def report(self) -> dict[str, Any]:
        return {"ok": not self.problems, "events": self.count, "problems": self.problems}

    def _check(self, event: Any) -> str | None:
        owner = event.originator_id
        if stored_digest(event) != event.hash and event.content_hash() != event.hash:
            return "content does not match its hash (edited after it was recorded)"
        if event.prev_hash != self.heads.get(owner, ""):
            return "hash chain broken: prev_hash is not the previous event's hash"
        self.heads[owner] = event.hash
        if isinstance(event, CampaignStarted):
            self.rules = systems.get(event.system)
        if event.originator_version == 1:
            self.states[owner] = event.mutate(None)
            if isinstance(event, CharacterRegistered):
                self.histories[owner] = [event]
            return None
        aggregate = self.states.get(owner)
        if aggregate is None:
            return "event of an aggregate that has no creation event"
        if isinstance(event, Amended):
            problem = self._rederive_amendment(event, self.histories.get(owner, []))
        else:
            problem = self._rederive(event, aggregate)
        event.mutate(aggregate)
        if owner in self.histories:
            self.histories[owner].append(event)
        return problem

    def _rederive_amendment(self, event: Amended, events: list[Any]) -> str | None:
        from .audit import rederive_amendment

        sheet, condition, changes = rederive_amendment(self.rules, events, event)
        if (sheet, condition, changes) != (event.sheet, event.condition, event.changes):
            return "Amended: recorded corrected state differs from the re-derived one"
        return None

    def _rederive(self, event: Any, aggregate: Any) -> str | None:
        if isinstance(event, DiceRolled):
            again = roll(event.notation, Dice.replay(event.dice))
            if (again["total"], again["faces"]) != (event.total, event.faces):
                return "DiceRolled: recorded total or faces differ from the recorded dice"
            return None
        if not isinstance(event, Resolution):
            return None
        rulings = self._ruling(event.rulings)
        outcome = type(event).derive(aggregate.sheet, aggregate.condition, event.inputs, rulings, Dice.replay(event.dice))
        if outcome != event.outcome:
            return f"{type(event).__name__}: recorded outcome differs from the re-derived one"
        return None

    def _ruling(self, data: dict[str, Any]) -> Any:
        """`Rulings.model_validate(data)`, once per distinct rulings (validated models are frozen)."""
        key = (self.rules, orjson.dumps(data, option=orjson.OPT_SORT_KEYS))
        found = self._rulings.get(key)
        if found is None:
            found = self._rulings[key] = self.rules.Rulings.model_validate(data)
        return found


class _Positions(list):  # type: ignore[type-arg]
    """A character's history as the log positions of its events (8 bytes each), not the events."""

    def __init__(self, verifier: _StoreVerifier) -> None:
        super().__init__()
        self.verifier, self.at = verifier, array("q")

    def append(self, _: Any) -> None:
        self.at.append(self.verifier.position)


class _StoreVerifier(Verifier):
    """The Verifier in bounded memory: it keeps where each character's events are in the log and reads
    a character's history back (the same events it checked) only to re-derive an amendment."""

    def __init__(self, app: Any) -> None:
        super().__init__()
        self.app, self.position = app, 0

    def feed(self, position: int, event: Any) -> None:
        self.position = position
        super().feed(position, event)

    def _check(self, event: Any) -> str | None:
        problem = super()._check(event)
        owner = event.originator_id
        if type(self.histories.get(owner)) is list:  # just registered: [event]
            self.histories[owner] = _Positions(self)
            self.histories[owner].append(event)
        return problem

    def _rederive_amendment(self, event: Any, events: list[Any]) -> str | None:
        positions = list(events.at) if isinstance(events, _Positions) else []
        recalled = [e for e in (_decoded(self.app, n) for n in notifications_at(self.app, positions))
                    if not isinstance(e, Exception)]
        return super()._rederive_amendment(event, recalled)
