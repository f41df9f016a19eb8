"""A unit of work: loads aggregates once, decides, and saves everything in one transaction."""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator, Mapping
from typing import Any
from uuid import UUID

from ..domain import systems
from ..domain.campaign import Campaign, CampaignStarted, campaign_id
from ..domain.character import Character, CharacterRegistered, character_id
from ..domain.dice import Dice
from ..domain.errors import BadInput, NotFound, Refusal
from ..domain.events import Resolution
from . import snapshots
from .app import Chronicle
from .clock import Clock
from .recorded import Recorded


class Session:
    def __init__(self, app: Chronicle, campaign: str | None, by: str, seed: int | None = None,
                 clock: Clock | None = None):
        self.app, self.by, self.seed = app, by, seed
        self.now = clock or Clock()  # every event's timestamp: the domain reads no clock
        self._campaign_name = campaign
        self._aggregates: dict[UUID, Any] = {}
        self._folded: dict[UUID, int] = {}  # events folded after the newest snapshot, per loaded aggregate
        self._rulings: tuple[Any, Any, Any] = (None, None, None)  # (campaign id and version, model, as recorded)
        self._fresh = _unpredictable_seeds()

    # loading ----------------------------------------------------------------------------------

    def _get(self, ident: UUID) -> Any | None:
        if ident not in self._aggregates:
            loaded = snapshots.load(self.app, ident)
            if loaded is None:
                return None
            self._aggregates[ident], self._folded[ident] = loaded
        return self._aggregates[ident]

    def held(self, ident: UUID) -> Any | None:
        """The aggregate as this session holds it (loaded or with unsaved events), if it does."""
        return self._aggregates.get(ident)

    def held_all(self) -> list[Any]:
        return list(self._aggregates.values())

    @property
    def campaign(self) -> Campaign:
        name = self._campaign_name or self._only_campaign()
        campaign = self._get(campaign_id(name))
        if campaign is None:
            raise NotFound(f"no campaign named {name!r}")
        self._campaign_name = name
        return campaign

    def _only_campaign(self) -> str:
        fresh = [a for a in self._aggregates.values() if isinstance(a, Campaign)]
        if fresh:
            return fresh[-1].name
        self.app.index.catch_up()
        names = [name for _, name, _ in self.app.index.campaigns()]
        if not names:
            raise NotFound("no campaign yet: start one with `chronicle campaign new NAME --system SYSTEM`")
        if len(names) > 1:
            raise BadInput(f"several campaigns ({', '.join(names)}): choose one with --campaign NAME")
        return names[0]

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

    def character(self, name: str) -> Character:
        character = self._get(character_id(self.campaign.id, name))
        if character is None:
            raise NotFound(f"no character named {name!r} in campaign {self.campaign.name!r}")
        return character

    def characters(self) -> list[Character]:
        """Every character of the campaign in registration order, those added in this session included."""
        campaign = self.campaign
        self.app.index.catch_up()
        names = [name for _, name, _ in self.app.index.characters(campaign.id)]
        names += [a.name for a in self._aggregates.values()
                  if isinstance(a, Character) and a.campaign_id == campaign.id and a.name not in names]
        return [self.character(name) for name in names]

    def dice(self, table: dict[str, list[int]] | None = None) -> Dice:
        """A fresh dice source for one event (seeded from --seed when given, else at random)."""
        return Dice(self._next_seed(), table=table)

    def has_character(self, name: str) -> bool:
        return self._get(character_id(self.campaign.id, name)) is not None

    # deciding ---------------------------------------------------------------------------------

    def start_campaign(self, name: str, system: str, select: bool = True) -> Campaign:
        """A new campaign, saved with the session; `select=False` keeps working in the current one."""
        rules = systems.get(system)
        ident = campaign_id(name)
        if self._get(ident) is not None:
            raise Refusal(f"campaign {name!r} already exists")
        rulings = rules.Rulings().model_dump(mode="json")
        campaign = Campaign.start(CampaignStarted, ident, name=name, system=system, rulings=rulings, by=self.by,
                                  timestamp=self.now())
        self._aggregates[ident] = campaign
        if select:
            self._campaign_name = name
        return campaign

    def adopt(self, aggregate: Any) -> None:
        """Save a new aggregate made outside the session (a forked timeline's character) with it."""
        self._aggregates[aggregate.id] = aggregate

    def add_character(self, name: str, sheet: Any, kind: str = "character") -> Character:
        campaign = self.campaign
        ident = character_id(campaign.id, name)
        if self._get(ident) is not None:
            raise Refusal(f"campaign {campaign.name!r} already has a character named {name!r}")
        character = Character.start(
            CharacterRegistered, ident, campaign_id=campaign.id, name=name, system=campaign.system, kind=kind,
            sheet=sheet.model_dump(mode="json"), by=self.by, timestamp=self.now(),
        )
        self._aggregates[ident] = character
        return character

    def resolve(self, character: Character, event_class: type[Resolution], inputs: Any,
                table: Mapping[str, list[int] | None] | None = None, **fields: Any) -> Resolution:
        """Derive the outcome of an action against the character's current state and record it."""
        return self.record(character, event_class, inputs, table, **fields).event

    def record(self, character: Character, event_class: type[Resolution], inputs: Any,
               table: Mapping[str, list[int] | None] | None = None, **fields: Any) -> Recorded:
        """Derive once and record: the table's dice for a purpose the action declares but this
        derivation did not use are ignored (and reported); for any other purpose they are bad input."""
        rulings, recorded = self._rulings_in_force()
        dice = self.dice({k: v for k, v in (table or {}).items() if v is not None})
        sheet, condition = character.sheet, character.condition
        outcome = event_class.derive(sheet, condition, inputs, rulings, dice)
        unused = dice.unused()
        declared = getattr(event_class, "PURPOSES", frozenset())
        undeclared = {purpose: faces for purpose, faces in unused.items() if purpose not in declared}
        if undeclared:
            given = "; ".join(f"{purpose} {', '.join(map(str, faces))}" for purpose, faces in undeclared.items())
            raise BadInput(f"this action does not use the table's dice given for: {given}")
        event = character.record(event_class, inputs=inputs, outcome=outcome, rulings=recorded,
                                 dice=dice.record(), by=self.by, timestamp=self.now(), **fields)
        return Recorded(event, character.name, character.system, sheet, condition, character.sheet,
                        character.condition, unused)

    def _next_seed(self) -> int:
        if self.seed is None:
            return next(self._fresh)
        self.seed += 1
        return self.seed

    # saving -----------------------------------------------------------------------------------

    def pending(self) -> list[Any]:
        return [a for a in self._aggregates.values() if a.pending_events]

    def save(self) -> list[Any]:
        aggregates = self.pending()
        if not aggregates:
            return []
        due = [a for a in aggregates if snapshots.due(a, self._folded.get(a.id, 0), len(a.pending_events))]
        # in the order they were decided (a batch's lines, not aggregate by aggregate): the session's
        # clock gives every event a later timestamp than the one before
        decided = sorted((event for a in aggregates for event in a.collect_events()), key=_timestamp)
        mapper = self.app.mapper  # the events' stored form, in one transaction: what app.save does that this app uses
        recordings = self.app.recorder.insert_events([mapper.to_stored_event(event) for event in decided])
        snapshots.take(self.app, due)
        for aggregate in due:
            self._folded[aggregate.id] = 0
        return recordings


def _timestamp(event: Any) -> Any:
    return event.timestamp


def _unpredictable_seeds(per_read: int = 64) -> Iterator[int]:
    """63-bit seeds from the operating system's generator (as `secrets` draws them), read `per_read`
    at a time: a system call for every event was a twentieth of a batch's time."""
    while True:
        for (value,) in struct.iter_unpack(">Q", os.urandom(8 * per_read)):
            yield value >> 1
