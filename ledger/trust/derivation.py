"""Each signed event is what its signed document derives on the state before it (docs/guarantees.md, "What
`verify` checks").

A command records one or more events, each carrying the command's one `signed` block (document, nonce, key,
signature); a run of consecutive events of the campaign carrying the same block is one command. `verify` and
`import` feed every event of the campaign here, in log order, and each command is run again: its document,
parsed as the campaign's system reads it, through the command's own handler, on copies of the campaign and
characters as they were just before its first event, with the ledger's own dice taken from the recorded
events (their seeds; for a fair roll the seed it revealed, mixed with the document's device seed, and the
commitment to a new chain the command recorded before it) and the table's dice from the document. The events
that gives must be the events recorded: the same kinds, on the same aggregates at the same versions, with the
same content (their outcomes and the ledger's faces included: those are re-derived here, from each event's
seed). Whether a fair seed belongs to the chain committed to is ledger/trust/fair_dice.py's check. Beside
that, in the same pass:

- a nonce two commands carry is named at the second (a signed command replayed);
- an event without a signature is named at its own position when the campaign signs its events (its start
  names its creator's key, or an earlier event is signed): a signature stripped;
- a character whose id does not derive from its campaign and name is named (the ids commands give).

The pass folds every event of the campaign (in `verify`'s worker processes, each worker folds them all and
runs again the commands whose first event is of its share of the aggregates: `owns`), so a command acting on
several characters (an attack, a winter) finds them all. A `replay --fork` is a timeline of another
campaign's events: its events are held to what a fork records (each points at its original), not run again.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from ...domain import systems
from ...domain.aggregate import SEALING
from ...domain.campaign import Campaign, CampaignChosen, CampaignStarted, RulingChanged
from ...domain.character import Character, CharacterRegistered
from ...domain.commitments import DiceCommitted
from ...domain.dice import Dice, DiceRecord
from ...domain.errors import ChronicleError, NotFound
from ...domain.events import DomainEvent, Signed
from ...domain.fair_dice import FairSeed
from ...domain.ids import derives_id, event_id
from ...domain.text import printable
from ..application import commands, fair_dice
from ..application.session import Session

if TYPE_CHECKING:
    from ...domain.events import Event
    from ...domain.systems import RuleSystem

Problem = dict[str, Any]
TICK = timedelta(microseconds=1)
FORK = "replay"  # `replay --fork`: a timeline of another campaign's events
CHOSEN = "campaign use"  # recorded `CampaignChosen` before the choice moved to the user's folder
AMEND = "amend"
IGNORED = frozenset({"hash", "prev_hash", "signed"})


class _Command:
    """A run of events carrying one signed block: the command they record."""

    __slots__ = ("signed", "events", "owned")

    def __init__(self, signed: Signed, owned: bool):
        self.signed, self.owned = signed, owned
        self.events: list[tuple[int, int, Event]] = []  # (position, where, event)


class Derivation:
    """Fed every event of one campaign in log order (`feed`), then `finish`ed: `problems` names what does not
    derive. `owns(aggregate)`: whether this process runs again the commands whose first event is on it (and
    names what concerns that event); `read_back(places)`: the campaign's events at those places (an amendment
    re-derives a character's history); a place is what `feed` is given as `where`."""

    def __init__(
        self,
        campaign_id: UUID,
        system: str | None,
        owns: Callable[[UUID], bool] | None = None,
        read_back: Callable[[list[int]], list[Event]] | None = None,
        positions: bool = True,
    ):
        """`positions`: whether the positions fed are the log's (`verify`); an import's are its file's lines."""
        self.campaign_id, self.system = campaign_id, system
        self.log_positions = positions
        self.owns = owns or (lambda _: True)
        self.read_back = read_back or (lambda _: [])
        self.problems: list[Problem] = []
        self.states: dict[UUID, Any] = {}  # every aggregate of the campaign, folded up to the pending command
        self.broken: set[UUID] = set()  # aggregates whose events cannot be folded (named by `verify`'s checks)
        self.registered: list[UUID] = []  # the campaign's characters, in registration order
        self.nonces: dict[str, int] = {}  # nonce -> the first position of the command that spent it
        self.signing: int | None = None  # the first position from which every event must be signed
        self.legacy: list[int] = []  # owned events recorded before the campaign signed its events
        # the campaign's events so far, for the amendments' references: position, aggregate, version, time
        self.positions = array("q")
        self.owners: list[UUID] = []
        self.versions = array("q")
        self.times = array("d")
        self.places: dict[UUID, array[int]] = {}  # each aggregate's events' places (`where`)
        self.at: dict[UUID, array[int]] = {}  # and positions, by version
        self._by_id: dict[str, int] | None = None  # event id -> position, made at the first amendment by id
        self._pending: _Command | None = None
        self._rulings: tuple[Any, Any, Any] = (None, None, None)  # a replay's rulings, kept between commands

    # feeding --------------------------------------------------------------------------------------------

    def feed(self, position: int, event: Event, where: int | None = None) -> None:
        where = position if where is None else where
        signed = event.signed
        pending = self._pending
        if pending is not None and signed is not None and signed == pending.signed:
            pending.events.append((position, where, event))
            return
        self._settle()
        owned = self.owns(event.originator_id)
        if isinstance(event, CampaignStarted) and event.originator_id == self.campaign_id and event.gm_key:
            self.signing = position  # started by a chronicle that signs: every event from the first is signed
        if signed is None:
            if owned and self.signing is not None:
                self._problem(
                    position,
                    f"{type(event).__name__} by {printable(event.by)} is unsigned, though the campaign's events are"
                    f" signed from #{self.signing} on: its signature was stripped",
                )
            elif owned:
                self.legacy.append(position)
            self._fold(position, where, event)
            return
        if self.signing is None:
            self.signing = position
        spent = self.nonces.get(signed.nonce)
        if spent is None:
            self.nonces[signed.nonce] = position
        elif owned:
            self._problem(
                position,
                f"its nonce was spent at #{spent} by another command: a signed command replayed"
                f" (`{_command_name(signed)}` signed by {signed.key})",
            )
        self._pending = _Command(signed, owned)
        self._pending.events.append((position, where, event))

    def finish(self) -> list[Problem]:
        self._settle()
        return self.problems

    def _problem(self, position: int, problem: str) -> None:
        self.problems.append({"position": position, "problem": problem})

    # folding ----------------------------------------------------------------------------------------------

    def _fold(self, position: int, where: int, event: Event, applied: bool = False) -> None:
        """Note the event's place, and fold it into its aggregate's state (unless `applied`: the state is the
        replay's, which made this very event)."""
        owner = event.originator_id
        self.positions.append(position)
        self.owners.append(owner)
        self.versions.append(event.originator_version)
        self.times.append(event.timestamp.timestamp())
        if self._by_id is not None:
            self._by_id[event_id(owner, event.originator_version)] = position
        self.places.setdefault(owner, array("q")).append(where)
        self.at.setdefault(owner, array("q")).append(position)
        if isinstance(event, CharacterRegistered) and owner not in self.broken:
            if not applied and self.owns(owner) and (forged := self._forged(event)):
                self._problem(position, forged)
            self.registered.append(owner)
        if applied or owner in self.broken:
            return
        state = self.states.get(owner)
        try:
            if state is None and event.originator_version == 1:
                self.states[owner] = event.mutate(None)
            elif state is None:
                self.broken.add(owner)
            else:
                event.mutate(state)
        except Exception:  # noqa: BLE001 - a version out of turn, an event that cannot apply: named by `verify`
            self.broken.add(owner)
            self.states.pop(owner, None)

    # settling a command --------------------------------------------------------------------------------

    def _settle(self) -> None:
        pending, self._pending = self._pending, None
        if pending is None:
            return
        replay = None
        try:
            if pending.owned and not any(e.originator_id in self.broken for _, _, e in pending.events):
                forged = next(((at, why) for at, _, e in pending.events if (why := self._forged(e))), None)
                found, replay = (forged, None) if forged else self._check(pending)
                if found is not None:
                    self._problem(*found)
                    replay = None
        finally:
            if replay is not None:  # what it made is what was recorded: its states are the fold's
                for ident, held in replay._aggregates.items():
                    held._pending_events = []
                    self.states[ident] = held
            for position, where, event in pending.events:
                self._fold(position, where, event, applied=replay is not None)

    def _forged(self, event: Event) -> str:
        """Why a registration's id is not the one chronicle gives ("" when it is)."""
        if not isinstance(event, CharacterRegistered):
            return ""
        owner = event.originator_id
        if derives_id(owner, event.campaign_id, event.name, self.states):
            return ""
        return (
            f"character {printable(event.name)} does not have the id its name gives ({owner}: chronicle derives a"
            " character's id from its campaign's and its name): it was forged"
        )

    def _check(self, pending: _Command) -> tuple[tuple[int, str] | None, Replay | None]:
        """Where and why the command's recorded events are not what its document derives (None: they are), and
        the replay that derived them."""
        events = pending.events
        first = events[0][0]
        name = _command_name(pending.signed)
        if name == FORK:
            return _forked(events), None
        if name == CHOSEN:
            return self._chosen(pending, events), None
        document = pending.signed.document
        ref = document.get("ref")
        if name == AMEND and not self.log_positions and isinstance(ref, str) and ref.strip().startswith("#"):
            # a position of the ledger that recorded it: an import's file numbers its lines, not those positions
            document = {**document, "ref": getattr(events[0][2], "target", ref)}
        try:
            command = commands.parse(document, self.system)
        except ChronicleError as error:
            return (first, f"its signed document is no command this campaign takes ({error})"), None
        replay = Replay(self, pending)
        # the device seed is the document's (it was signed); whether the command came from another device the log
        # does not say (a batch's lines may carry one too), so the replay holds the `fair_dice` ruling as the
        # command line's commands are held: never stricter than the ledger was
        replay.device_seed = command.device_seed
        replay.touching()
        unsealed = SEALING.set(False)
        try:
            commands.handler_of(command)(replay, command)
        except ChronicleError as refused:
            return (first, f"its signed document (`{name}`) does not derive on the state before it: {refused}"), None
        except Exception as error:  # noqa: BLE001 - a document the rules cannot run is not what the event is
            return (first, f"its signed document (`{name}`) cannot be run again ({type(error).__name__})"), None
        finally:
            SEALING.reset(unsealed)
            self._rulings = replay._rulings
        derived = replay.derived()
        if any(_older(event) for _, _, event in events) and _differ_at_all(derived, events, self._rules()):
            # recorded under an older version of its rules, which worked out what the document left open (a
            # weapon, a default) as today's do not: it must still be what the document names, and its outcome
            # is re-derived from its own inputs and dice (docs/guarantees.md, "Events of older rules")
            return _named_alike(document, events, name), None
        for index, (position, _, event) in enumerate(events):
            if index >= len(derived):
                return (
                    position,
                    f"its signed document (`{name}`) derives {len(derived)} event(s), not this one too: a signed event"
                    " copied or duplicated",
                ), None
            different = _differs(derived[index], event, self._rules())
            if different:
                kind = type(event).__name__
                return (position, f"{kind} is not what its signed document (`{name}`) derives: {different}"), None
        if len(derived) > len(events):
            return (
                events[-1][0],
                f"its signed document (`{name}`) derives {len(derived)} events; the log holds {len(events)} carrying"
                " its signature",
            ), None
        return None, replay

    def _rules(self) -> RuleSystem | None:
        try:
            return systems.get(self.system) if self.system else None
        except ChronicleError:
            return None

    def _chosen(self, pending: _Command, events: list[tuple[int, int, Event]]) -> tuple[int, str] | None:
        """`campaign use`, as it was recorded before the choice moved to each user's folder."""
        position, _, event = events[0]
        campaign = self.states.get(self.campaign_id)
        asked = pending.signed.document.get("name")
        if (
            len(events) != 1
            or not isinstance(event, CampaignChosen)
            or not isinstance(campaign, Campaign)
            or not isinstance(asked, str)
            or asked.strip().casefold() != campaign.name.casefold()
        ):
            return position, f"{type(event).__name__} is not what its signed document (`{CHOSEN}`) recorded"
        return None

    # what a replay reads ----------------------------------------------------------------------------------

    def history(self, ident: UUID) -> list[Event]:
        """The aggregate's events folded so far (those the replay's state was folded from)."""
        places = self.places.get(ident)
        return self.read_back(list(places)) if places else []

    def event_at(self, position: int) -> tuple[UUID, int] | None:
        index = bisect_right(self.positions, position) - 1
        if index < 0 or self.positions[index] != position:
            return None
        return self.owners[index], self.versions[index]

    def by_event_id(self, ident: str) -> int | None:
        if self._by_id is None:
            self._by_id = {
                event_id(owner, version): position
                for position, owner, version in zip(self.positions, self.owners, self.versions, strict=True)
            }
        return self._by_id.get(ident)

    def at_time(self, moment: datetime) -> int | None:
        """The last event at or before MOMENT (as the index answers a time)."""
        bound = moment.timestamp()
        found = [position for position, time in zip(self.positions, self.times, strict=True) if time <= bound]
        return max(found) if found else None

    def position_of(self, ident: UUID, version: int) -> int:
        positions = self.at.get(ident)
        return positions[version - 1] if positions is not None and 0 < version <= len(positions) else 0


def covered(event: Event) -> bool:
    """Whether the event's outcome is checked by running its command again here (a signed event; a fork's are
    its original's, and a choice recorded no outcome): `verify`'s own re-derivation of it can be left out."""
    signed = event.signed
    return signed is not None and _command_name(signed) not in (FORK, CHOSEN)


def _command_name(signed: Signed) -> str:
    name = signed.document.get("command")
    return name if isinstance(name, str) else ""


def _forked(events: list[tuple[int, int, Event]]) -> tuple[int, str] | None:
    """A `replay --fork` writes a campaign of its own: its start and rulings, then characters and events that
    each name the original they follow (`origin`)."""
    for position, _, event in events:
        if isinstance(event, (CampaignStarted, RulingChanged)) or event.origin is not None:
            continue
        return position, f"{type(event).__name__} is not what a `replay --fork` records (it names no original)"
    return None


def _differs(derived: DomainEvent, recorded: DomainEvent, rules: RuleSystem | None) -> str:
    """What of RECORDED is not what was derived ("" when nothing), in words."""
    if type(derived).__name__ != type(recorded).__name__:  # (by name: an older version of its class upcasts to it)
        return f"the document derives a {type(derived).__name__} here"
    if derived.originator_id != recorded.originator_id:
        return "the document derives it on another aggregate (its signature was copied from another's event)"
    if derived.originator_version != recorded.originator_version:
        return f"the document derives it as version {derived.originator_version}, not {recorded.originator_version}"
    ours, theirs = derived.__dict__, recorded.__dict__
    then = (recorded.__pydantic_private__ or {}).get("_recorded")  # recorded by an older version of its class
    keys = ours.keys() | theirs.keys() if then is None else ours.keys() & then[1].keys()  # (what it held then)
    for key in keys:
        if key in IGNORED or ours.get(key) == theirs.get(key):
            continue
        made, kept = _json(ours.get(key)), _json(theirs.get(key))
        if then is not None:  # what a later version added (a wound's number, say) was not there to record
            made, kept = _as_then(made, then[1][key]), _as_then(kept, then[1][key])
        if key == "rulings":  # a ruling added since takes its default
            made, kept = _rulings(rules, made), _rulings(rules, kept)
        if made != kept:
            return f"its {key} is {_shown(kept)}, the document derives {_shown(made)}"
    return ""


def _older(event: Event) -> bool:
    """Whether EVENT was recorded by an older version of its class (upcast when it was read)."""
    return (event.__pydantic_private__ or {}).get("_recorded") is not None


def _differ_at_all(derived: list[DomainEvent], events: list[tuple[int, int, Event]], rules: RuleSystem | None) -> bool:
    if len(derived) != len(events):
        return True
    return any(_differs(made, event, rules) for made, (_, _, event) in zip(derived, events, strict=True))


def _named_alike(document: dict[str, Any], events: list[tuple[int, int, Event]], name: str) -> tuple[int, str] | None:
    """Where an event of older rules is not what its document names: each value the document gives that its
    first event's inputs hold under the same name must be the one recorded."""
    position, _, event = events[0]
    inputs = _json(getattr(event, "inputs", None))
    if not isinstance(inputs, dict):
        return None
    for key, value in document.items():
        if key in inputs and inputs[key] != value:
            shown = _shown(inputs[key])
            return (
                position,
                f"{type(event).__name__} is not what its signed document (`{name}`) names: its {key} is {shown}",
            )
    return None


def _as_then(value: Any, recorded: Any) -> Any:
    """VALUE with only the keys (at any depth) an older version's event RECORDED held."""
    if isinstance(value, dict) and isinstance(recorded, dict):
        return {key: _as_then(value.get(key), held) for key, held in recorded.items()}
    return value


def _json(value: Any) -> Any:
    from pydantic import BaseModel

    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def _rulings(rules: RuleSystem | None, data: Any) -> Any:
    """Rulings as the system reads them (a ruling added since takes its default)."""
    if rules is None or not isinstance(data, dict):
        return data
    try:
        return rules.Rulings.model_validate(data).model_dump(mode="json")
    except Exception:  # noqa: BLE001
        return data


def _shown(value: Any) -> str:
    text = printable(str(value))
    return text if len(text) <= 80 else text[:77] + "..."


# the replay ---------------------------------------------------------------------------------------------


class _Book:
    """The table view's invitation book, for a replay: nothing is written beside the log."""

    def address(self) -> None:
        return None

    def open(self, *_: Any) -> None:
        return None

    def use(self, *_: Any) -> None:
        return None


class _Index:
    """The index as it stood before the command, from the fold (a replay reads nothing else)."""

    def __init__(self, derivation: Derivation):
        self.derivation = derivation

    def catch_up(self, *_: Any, **__: Any) -> int:
        return 0

    def position(self) -> int:
        positions = self.derivation.positions
        return positions[-1] if positions else 0

    def campaigns(self) -> list[tuple[str, str, str]]:
        campaign = self.derivation.states.get(self.derivation.campaign_id)
        return [] if campaign is None else [(str(campaign.id), campaign.name, campaign.system)]

    def campaign(self, ident: str) -> tuple[str, str] | None:
        return next(((name, system) for found, name, system in self.campaigns() if found == ident), None)

    def campaign_named(self, name: str) -> str | None:
        return next((found for found, known, _ in self.campaigns() if known == name), None)

    def current_campaign(self) -> str:
        return str(self.derivation.campaign_id)

    def archived(self, ident: UUID) -> bool:
        return bool(getattr(self.derivation.states.get(ident), "archived", False))

    def characters(self, campaign_id: UUID) -> list[tuple[str, str, str]]:
        found = []
        for ident in self.derivation.registered:
            state = self.derivation.states.get(ident)
            if isinstance(state, Character) and state.campaign_id == campaign_id:
                found.append((str(ident), state.name, state.kind))
        return found

    def event_at(self, campaign_id: UUID, position: int) -> tuple[UUID, int] | None:
        return self.derivation.event_at(position)

    def by_event_id(self, campaign_id: UUID, ident: str) -> int | None:
        return self.derivation.by_event_id(ident)

    def at_time(self, campaign_id: UUID, moment: str) -> int | None:
        return self.derivation.at_time(datetime.strptime(moment, "%Y-%m-%dT%H:%M:%S.%f%z"))

    def position_of(self, ident: UUID, version: int) -> int:
        return self.derivation.position_of(ident, version)


class _Events:
    def __init__(self, derivation: Derivation):
        self.derivation = derivation

    def get(self, ident: UUID) -> Iterator[Event]:
        return iter(self.derivation.history(ident))


class _App:
    """What a replay's handler may read of the ledger: the index and the events before the command."""

    target = ""

    def __init__(self, derivation: Derivation):
        self.index = _Index(derivation)
        self.events = _Events(derivation)


class _Clock:
    """The recorded events' times, in turn: the n-th event a replay makes is stamped as the n-th recorded."""

    def __init__(self, replay: Any, times: list[datetime]):
        self.replay, self.times = replay, times

    def __call__(self) -> datetime:
        made = self.replay.made()
        if made < len(self.times):
            return self.times[made]
        return self.times[-1] + TICK * (made - len(self.times) + 1)


class Replay(Session):
    """A unit of work that decides a command again on copies of the state before it, and saves nothing."""

    def __init__(self, derivation: Derivation, pending: _Command):
        recorded = [event for _, _, event in pending.events]
        clock = cast(Any, _Clock(self, [e.timestamp for e in recorded]))
        super().__init__(cast(Any, _App(derivation)), None, recorded[0].by, clock=clock)
        self.derivation, self.recorded = derivation, recorded
        self.key = pending.signed.key
        dice = [getattr(event, "dice", None) for event in recorded]
        self._records = iter([record for record in dice if isinstance(record, DiceRecord)])
        self._rulings = derivation._rulings

    def made(self) -> int:
        return sum(len(aggregate.pending_events) for aggregate in self._aggregates.values())

    def derived(self) -> list[Any]:
        made = [event for aggregate in self._aggregates.values() for event in aggregate.pending_events]
        return sorted(made, key=lambda event: event.timestamp)

    def _get(self, ident: UUID) -> Any | None:
        if ident not in self._aggregates:
            state = self.derivation.states.get(ident)
            if state is None:
                return None
            held = object.__new__(type(state))  # (a shallow copy: every event replaces what it changes)
            held.__dict__.update(state.__dict__)
            held._pending_events = []
            self._aggregates[ident] = held
        return self._handed(self._aggregates[ident])

    def _index(self) -> Any:
        return self.app.index

    def _current(self) -> Campaign:
        found = self._get(self.derivation.campaign_id)
        if not isinstance(found, Campaign):
            raise NotFound("the campaign has no start before this event")
        return found

    def dice(self, table: dict[str, list[int]] | None = None) -> Dice:
        """The dice of the next recorded event that rolled: the ledger's as it drew them (its seed; for a fair
        roll the seed it revealed, mixed with the device seed of the signed document, not of the event), the
        table's from the document, held to the campaign's `fair_dice` ruling as the ledger held them."""
        if table:
            fair_dice.hold_table_dice(self, table)
        record = next(self._records, None)
        if record is None or record.fair is None:
            return Dice(0 if record is None else record.seed, table=table)
        revealed = record.fair
        return Dice(0, table=table, fair=lambda: self._reveal(revealed))

    def _reveal(self, revealed: FairSeed) -> FairSeed:
        """What the ledger's `reveal` gave the command (ledger/application/fair_dice.py): the seed the event
        reveals, after the commitment to a new chain the command recorded just before it, if it did (its head
        and length are the ledger's to choose, as a seed is; whether their seeds hash to them is
        ledger/trust/fair_dice.py's to check)."""
        made = self.made()
        if made < len(self.recorded) and isinstance(committed := self.recorded[made], DiceCommitted):
            self.campaign.trigger_event(
                DiceCommitted, head=committed.head, length=committed.length, by=self.by, timestamp=self.now()
            )
        return FairSeed.model_construct(index=revealed.index, seed=revealed.seed, device_seed=self.device_seed)

    def moment(self) -> datetime:
        """The time the ledger gave the action (the table gave none), as the event records it."""
        made = self.made()
        inputs = getattr(self.recorded[made], "inputs", None) if made < len(self.recorded) else None
        found = getattr(inputs, "at", None)
        return found if isinstance(found, datetime) else self.now()

    def new_campaign_id(self, name: str) -> UUID:
        return self.recorded[0].originator_id

    def new_invitation(self) -> tuple[str, str]:
        hashed = getattr(self.recorded[0], "invitation", None)
        return "", hashed if isinstance(hashed, str) else ""

    def invitation_book(self) -> Any:
        return _Book()

    def log_digest(self) -> str:
        digest = getattr(self.recorded[0], "digest", "")
        return digest if isinstance(digest, str) else ""
