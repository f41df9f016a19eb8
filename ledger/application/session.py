"""The unit of work (`Session`, a name older than this module's split; not a session of play, which is
`SessionStarted` .. `SessionEnded` in domain/campaign.py): it loads aggregates once, decides, and saves
everything in one transaction. What it draws (ids, tokens) is ledger/application/drawn.py's; names are
matched by ledger/application/names.py."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from ...domain import systems
from ...domain.campaign import Campaign, CampaignStarted
from ...domain.character import Character, CharacterRegistered, character_id
from ...domain.dice import Dice
from ...domain.errors import BadInput, NotFound, OfTheCharacter, Refusal
from ...domain.events import Resolution
from ...domain.text import normalise_name, printable
from ...projections.catchup import catch_up
from ..store import snapshots
from ..store.chronicle import Chronicle
from ..store.feed import LoggedEvent
from ..trust import nonces
from . import current, drawn, fair_dice
from .clock import Clock
from .names import matching
from .recorded import Recorded


class Session:
    def __init__(
        self, app: Chronicle, campaign: str | None, by: str, seed: int | None = None, clock: Clock | None = None
    ):
        self.app, self.by, self.seed = app, by, seed
        self.now = clock or Clock()  # every event's timestamp: the domain reads no clock
        self.key = ""  # the public key of the participant recording (what they record is signed with it)
        self._campaign_name = campaign
        self._campaign: Campaign | None = None
        self.chose: UUID | None = None  # the campaign chosen (`campaign new`, `campaign use`), noted once committed
        self._caught_up = False
        self._names: dict[UUID, dict[str, str]] = {}  # the index's character names, per campaign (`_indexed_names`)
        self._aggregates: dict[UUID, Any] = {}
        self._folded: dict[UUID, int] = {}  # events folded after the newest snapshot, per loaded aggregate
        self._rulings: tuple[Any, Any, Any] = (None, None, None)  # (campaign id and version, model, as recorded)
        # the ledger's fair dice (ledger/application/fair_dice.py): the command's device seed, whether it
        # came signed from another device, the seeds it took, whether it made their tables
        self.device_seed: str | None = None
        self.from_device = False
        self.fair_taken: list[dict[str, Any]] = []
        self.fair_tables_made = False
        self._due: dict[UUID, Any] = {}  # saved aggregates due a snapshot, taken once their events are committed
        self.saved: list[tuple[int, Any, str, str]] = []  # the last save's (log position, event, name or "", system)
        # what it saved since its rows were last written: (first position, last, how many events), the
        # characters those events changed, and where those it registered were registered
        self._span: tuple[int, int, int] | None = None
        self._changed: dict[UUID, None] = {}
        self._registered_at: dict[UUID, int] = {}
        # while a command decides (`touching`): each aggregate handed out, with its pending events then
        self._touched: dict[UUID, tuple[Any, int]] | None = None

    # loading ----------------------------------------------------------------------------------

    def _get(self, ident: UUID) -> Any | None:
        if ident not in self._aggregates:
            loaded = snapshots.load(self.app, ident)
            if loaded is None:
                return None
            self._aggregates[ident], self._folded[ident] = loaded
        return self._handed(self._aggregates[ident])

    def held(self, ident: UUID) -> Any | None:
        """The aggregate as this session holds it (loaded or with unsaved events), if it does."""
        found = self._aggregates.get(ident)
        return found if found is None else self._handed(found)

    def held_all(self) -> list[Any]:
        return [self._handed(aggregate) for aggregate in self._aggregates.values()]

    @property
    def campaign(self) -> Campaign:
        if self._campaign is None:
            self._campaign = self._find_campaign(self._campaign_name) if self._campaign_name else self._current()
        return self._handed(self._campaign)

    # what a command touched ---------------------------------------------------------------------

    def touching(self) -> None:
        """Note from now on every aggregate this session hands out (or makes), with how many pending events
        it had then: a command changes no other (a batch's session may hold thousands)."""
        self._touched = {}

    def touched(self) -> list[tuple[Any, int]]:
        """The aggregates handed out since `touching`, each with the number of pending events it had then
        (0 for one made since); noting stops."""
        touched, self._touched = self._touched, None
        return list((touched or {}).values())

    def _handed(self, aggregate: Any) -> Any:
        touched = self._touched
        if touched is not None and aggregate.id not in touched:
            touched[aggregate.id] = (aggregate, len(aggregate.pending_events))
        return aggregate

    def _made(self, aggregate: Any) -> None:
        self._aggregates[aggregate.id] = aggregate
        if self._touched is not None:
            self._touched[aggregate.id] = (aggregate, 0)

    def campaign_named(self, name: str) -> Campaign:
        """Another campaign than the current one, by name (`campaign use`, `campaign archive`)."""
        return self._find_campaign(name)

    def _find_campaign(self, name: str) -> Campaign:
        """The campaign NAME: as written, else matched without regard to case (`sartar` finds `Sartar`),
        by the index (an id is drawn at random, never derived from a name), or one this session made."""
        name = normalise_name(name, "campaign name")
        held = [a for a in self._aggregates.values() if isinstance(a, Campaign)]
        ident = self._index().campaign_named(name)  # the one row asked for, by the index on names
        ident = ident or next((str(campaign.id) for campaign in held if campaign.name == name), None)
        if ident is None:  # written in another case, or unknown: every name is compared (and offered)
            named: dict[str, str] = {}
            for found_id, known, _ in self._index().campaigns():  # (the oldest of a name two share)
                named.setdefault(known, found_id)
            for campaign in held:
                named.setdefault(campaign.name, str(campaign.id))
            if not named:
                raise NotFound("no campaign yet: start one with `chronicle campaign new NAME --system SYSTEM`")
            ident = matching(name, named, "campaign")
        found = self._get(UUID(ident))
        if not isinstance(found, Campaign):
            raise NotFound(
                f"campaign {printable(name)} is in the index but not in the log: `chronicle verify` says why"
            )
        return found

    def _current(self) -> Campaign:
        """The campaign commands act on without `--campaign`: one this session started (a batch's `campaign
        new`), else the user's own choice (ledger/application/current.py), else the one started last."""
        fresh = [a for a in self._aggregates.values() if isinstance(a, Campaign) and a.pending_events]
        if fresh:
            return fresh[-1]
        index = self._index()  # (caught up: a read model that cannot take the log says so here)
        mine = current.chosen(getattr(self.app, "target", ""))
        if mine is not None:
            chosen = self._get(mine)
            if isinstance(chosen, Campaign) and not chosen.archived:
                return chosen
        found = index.current_campaign()  # none chosen yet: the campaign started last, theirs once written
        if found is None:
            raise NotFound("no campaign yet: start one with `chronicle campaign new NAME --system SYSTEM`")
        campaign = self._get(UUID(found))
        if not isinstance(campaign, Campaign):
            raise NotFound("the current campaign is in the index but not in the log: `chronicle verify` says why")
        self.chose = campaign.id
        return campaign

    def _index(self) -> Any:
        """The index read model, caught up once per session (names and positions come from it)."""
        if not self._caught_up:
            self.app.index.catch_up()
            self._caught_up = True
            self._names = {}
            self.app.index_caught_up()
        return self.app.index

    def catch_up(self, rows: bool = False) -> None:
        """Fold what this session saved into the index (in its transaction, where there is one); with
        `rows`, into the characters' rows as well, from the same page of the log, and keep how `log`
        tells the events saved (a command's few events: the `character show` or `log --tail` after an
        `injure` then reads rows as they are)."""
        app = self.app
        held = rows and self.write_rows()
        catch_up([app.index, app.characters] if rows and not held else [app.index], known=self._logged())
        self._caught_up = True
        self._names = {}
        if rows and self.saved and app.mapper.cipher is None:  # (an encrypted ledger's sentences stay sealed)
            with app.views.transaction() as cursor:
                app.told.write(cursor, self.saved, app.index.position_of)

    def write_rows(self) -> bool:
        """Write the rows of the characters this session's saves changed from the characters as it holds
        them, when those saves are all the log holds after the rows' position (a command's, or a batch's
        in its one transaction): no event is read or folded again, and the first `character show` after
        a long batch reads rows. False, writing nothing, otherwise: the rows then catch up from the log."""
        span, view = self._span, self.app.characters
        if span is None:
            return False
        first, last, count = span
        if last - first + 1 != count or view.position() != first - 1:
            return False
        held = [self._aggregates[ident] for ident in self._changed]
        try:
            with self.app.views.transaction() as cursor:
                view.write_current(cursor, [a for a in held if isinstance(a, Character)], self._registered_at, last)
        except IntegrityError:  # another process moved the rows on meanwhile: they catch up instead, but on
            view.forget()  # PostgreSQL the unit's transaction failed with it: the command is tried again whole
            if self.app.unit_key() is not None:  # (docs/scale.md)
                raise
            return False
        self._span, self._changed, self._registered_at = None, {}, {}
        return True

    def _logged(self) -> list[LoggedEvent]:
        """The events of the last save as the read models are fed them, from memory: their stored state
        is what was kept when each was sealed (`DomainEvent.stored_state`)."""
        return [
            LoggedEvent(at, event.originator_id, event.originator_version, get_topic(type(event)), event.stored_state())
            for at, event, _, _ in self.saved
        ]

    @property
    def rules(self) -> Any:
        return systems.get(self.campaign.system)

    def rulings(self) -> Any:
        return self._rulings_in_force()[0]

    def _rulings_in_force(self) -> tuple[Any, dict[str, Any]]:
        """The campaign's rulings as its system's model and as recorded on events, made once per
        version of the campaign (only its events change them; a batch resolves thousands of lines)."""
        campaign = self.campaign
        key = (campaign.id, campaign.version)
        if self._rulings[0] != key:
            rulings = self.rules.Rulings.model_validate(campaign.rulings)
            self._rulings = (key, rulings, rulings.model_dump(mode="json"))
        return self._rulings[1], self._rulings[2]

    def character(self, name: str, acting: bool = False) -> Character:
        """The campaign's character NAME (as written, else without regard to case, else under a name it
        took later); `acting` refuses a retired one (exit 1)."""
        name = normalise_name(name, "character name")
        campaign = self.campaign
        character = self._get(character_id(campaign.id, name))
        if character is None or character.name != name:  # renamed away from NAME, or another case
            found = self._get(self.character_id(name))
            assert isinstance(found, Character)
            character = found
        if acting:
            _refuse_retired(character)
        return character

    def character_id(self, name: str) -> UUID:
        """The id of the character NAME, from the index without loading it (a read model serves the rest)."""
        name = normalise_name(name, "character name")
        campaign = self.campaign
        indexed = self._indexed_names(campaign.id)
        if name in indexed:  # (the index's name wins over one this session holds)
            return UUID(indexed[name])
        named = {
            a.name: str(a.id)
            for a in self._aggregates.values()
            if isinstance(a, Character) and a.campaign_id == campaign.id
        }
        named.update(indexed)
        if name in named:
            return UUID(named[name])
        return UUID(matching(name, named, f"character in campaign {printable(campaign.name)}"))

    def _indexed_names(self, campaign_id: UUID) -> dict[str, str]:
        """The campaign's characters' ids by name as the index has them, read once until the index takes
        more events (a batch names a character on each of thousands of lines)."""
        found = self._names.get(campaign_id)
        if found is None:
            indexed = self._index().characters(campaign_id)
            found = self._names[campaign_id] = {known: ident for ident, known, _ in indexed}
        return found

    def characters(self, retired: bool = False) -> list[Character]:
        """The campaign's characters in registration order (those added in this session included);
        retired ones only when asked."""
        campaign = self.campaign
        idents = [UUID(ident) for ident, _, _ in self._index().characters(campaign.id)]
        idents += [
            a.id
            for a in self._aggregates.values()
            if isinstance(a, Character) and a.campaign_id == campaign.id and a.id not in idents
        ]
        found = [self._get(ident) for ident in idents]
        return [c for c in found if isinstance(c, Character) and (retired or not c.retired)]

    def dice(self, table: dict[str, list[int]] | None = None) -> Dice:
        """A fresh dice source for one event: the ledger's fair dice, their seed taken when it first rolls
        (seeded from --seed instead when given: tests and demos); the table's own dice, where the
        campaign's rulings take them."""
        if table:
            fair_dice.hold_table_dice(self, table)
        if self.seed is not None:
            return Dice(self._next_seed(), table=table)
        return Dice(0, table=table, fair=functools.partial(fair_dice.reveal, self))

    def has_character(self, name: str) -> bool:
        try:
            self.character(name)
        except NotFound:
            return False
        return True

    # deciding ---------------------------------------------------------------------------------

    def start_campaign(self, name: str, system: str, select: bool = True, gm_key: str | None = None) -> Campaign:
        """A new campaign, saved with the session, and the current one unless `select=False` (a fork)."""
        rules = systems.get(system)
        name = normalise_name(name, "campaign name")
        taken = [known for _, known, _ in self._index().campaigns() if known.casefold() == name.casefold()]
        taken += [
            a.name
            for a in self._aggregates.values()
            if isinstance(a, Campaign) and a.name.casefold() == name.casefold()
        ]
        if taken:
            raise Refusal(f"campaign {printable(taken[0])} already exists")
        ident = self.new_campaign_id(name)
        rulings = rules.Rulings().model_dump(mode="json")
        campaign = Campaign.start(
            CampaignStarted,
            ident,
            name=name,
            system=system,
            rulings=rulings,
            by=self.by,
            chosen=select,
            gm_key=gm_key,
            timestamp=self.now(),
        )
        self._made(campaign)
        if select:
            self.choose(campaign)
        return campaign

    def choose(self, campaign: Campaign) -> None:
        """Act on CAMPAIGN from now on (later lines of a batch), and let the user's folder note it."""
        self._campaign_name, self._campaign, self.chose = campaign.name, campaign, campaign.id

    def new_campaign_id(self, name: str) -> UUID:
        """A new campaign's id (ledger/application/drawn.py)."""
        return drawn.campaign_id(name, self.seed)

    def moment(self) -> datetime:
        """When an action happened, where the table did not say: now (the ledger's own input, as its dice)."""
        return self.now()

    def new_invitation(self) -> tuple[str, str]:
        """A fresh one-time token and its hash (ledger/application/drawn.py)."""
        return drawn.invitation()

    def invitation_book(self) -> Any:
        """Where the table view finds invitations by their token (ledger/trust/invitations.py)."""
        from ..trust.invitations import invitation_book

        return invitation_book(self.app)

    def log_digest(self) -> str:
        """The campaign's digest now (ledger/trust/digest.py): what `session end` records."""
        from ..trust.digest import digest

        return digest(self.app, self.campaign.id)

    def adopt(self, aggregate: Any) -> None:
        """Save a new aggregate made outside the session (a forked timeline's character) with it."""
        self._made(aggregate)

    def add_character(self, name: str, sheet: Any, kind: str = "character", npc: bool = False) -> Character:
        campaign = self.campaign
        name = normalise_name(name, "character name")
        if self.has_character(name) and self.character(name).name.casefold() == name.casefold():
            raise Refusal(
                f"campaign {printable(campaign.name)} already has a character named "
                f"{printable(self.character(name).name)}"
            )
        ident = character_id(campaign.id, name)
        suffix = 1
        while self._get(ident) is not None:  # the name's id belongs to a character renamed since
            suffix += 1
            ident = character_id(campaign.id, f"{name}#{suffix}")
        character = Character.start(
            CharacterRegistered,
            ident,
            campaign_id=campaign.id,
            name=name,
            system=campaign.system,
            kind=kind,
            sheet=sheet.model_dump(mode="json"),
            npc=npc,
            by=self.by,
            timestamp=self.now(),
        )
        self._made(character)
        return character

    def resolve(
        self,
        character: Character,
        event_class: type[Resolution],
        inputs: Any,
        table: Mapping[str, list[int] | None] | None = None,
        **fields: Any,
    ) -> Resolution:
        """Derive the outcome of an action against the character's current state and record it."""
        return self.record(character, event_class, inputs, table, **fields).event

    def record(
        self,
        character: Character,
        event_class: type[Resolution],
        inputs: Any,
        table: Mapping[str, list[int] | None] | None = None,
        **fields: Any,
    ) -> Recorded:
        """Derive once and record: the table's dice for a purpose the action declares but this
        derivation did not use are ignored (and reported); for any other purpose they are bad input."""
        _refuse_retired(character)
        rulings, recorded = self._rulings_in_force()
        dice = self.dice({k: v for k, v in (table or {}).items() if v is not None})
        sheet, condition = character.sheet, character.condition
        try:
            outcome = event_class.derive(sheet, condition, inputs, rulings, dice)
        except OfTheCharacter as unnamed:  # the rules know a sheet and a condition, the ledger whose they are
            raise unnamed.of(character.name) from None
        unused = dice.unused()
        undeclared = {purpose: faces for purpose, faces in unused.items() if not event_class.declares(purpose)}
        if undeclared:
            given = "; ".join(f"{purpose} {', '.join(map(str, faces))}" for purpose, faces in undeclared.items())
            raise BadInput(f"this action does not use the table's dice given for: {given}")
        event = character.record(
            event_class,
            inputs=inputs,
            outcome=outcome,
            rulings=recorded,
            dice=dice.record(),
            by=self.by,
            timestamp=self.now(),
            **fields,
        )
        return Recorded(
            event, character.name, character.system, sheet, condition, character.sheet, character.condition, unused
        )

    def _next_seed(self) -> int:
        assert self.seed is not None
        self.seed += 1
        return self.seed

    # saving -----------------------------------------------------------------------------------

    def pending(self) -> list[Any]:
        return [a for a in self._aggregates.values() if a.pending_events]

    def save(self) -> Sequence[int] | None:
        """Insert every pending event, in one transaction (or in the open unit: ledger/store/chronicle.py).
        Snapshots due are taken by `take_snapshots`, once the events are committed."""
        self.saved = []
        aggregates = self.pending()
        if not aggregates:
            return []
        self.app.index_caught_up(False)
        due = [a for a in aggregates if snapshots.due(a, self._folded.get(a.id, 0), len(a.pending_events))]
        for aggregate in aggregates:
            self._folded[aggregate.id] = self._folded.get(aggregate.id, 0) + len(aggregate.pending_events)
        # in the order they were decided (a batch's lines, not aggregate by aggregate): the session's
        # clock gives every event a later timestamp than the one before
        told = {a.id: (a.name if isinstance(a, Character) else "", a.system) for a in aggregates}
        decided = sorted((event for a in aggregates for event in a.collect_events()), key=_timestamp)
        mapper = self.app.mapper  # the events' stored form, in one transaction: what app.save does that this app uses
        recordings = self.app.recorder.insert_events([mapper.to_stored_event(event) for event in decided])
        if recordings:  # each command's nonce, spent in the same transaction (ledger/trust/nonces.py)
            campaign_of = {a.id: getattr(a, "campaign_id", a.id) for a in aggregates}
            nonces.spend(self.app, nonces.commands(list(zip(recordings, decided, strict=True)), campaign_of))
        self._due.update((a.id, a) for a in due)
        if recordings:
            self.saved = [
                (at, event, *told[event.originator_id]) for at, event in zip(recordings, decided, strict=True)
            ]
            first, _, count = self._span or (recordings[0], 0, 0)
            self._span = (first, recordings[-1], count + len(recordings))
            for at, event in zip(recordings, decided, strict=True):
                self._changed[event.originator_id] = None
                if isinstance(event, CharacterRegistered):
                    self._registered_at[event.originator_id] = at
        return recordings

    def take_snapshots(self) -> None:
        """Snapshot the saved aggregates due one (best effort: ledger/store/snapshots.py), after their
        events' transaction has committed."""
        due, self._due = list(self._due.values()), {}
        snapshots.take(self.app, due)
        for aggregate in due:
            self._folded[aggregate.id] = 0


def _refuse_retired(character: Character) -> None:
    if character.retired:
        raise Refusal(f"{character.name} has retired from the campaign: nothing more can be recorded for them")


def _timestamp(event: Any) -> Any:
    return event.timestamp
