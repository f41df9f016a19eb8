"""The Campaign aggregate: a name, a rule system and the rulings in force."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .aggregate import Aggregate
from .dice import DiceRecord
from .events import Created, Event
from .ids import campaign_id  # noqa: F401  (campaigns are found by name)


class CampaignStarted(Created):
    name: str
    system: str
    rulings: dict[str, Any]

    def apply(self, aggregate: Any) -> None:
        aggregate.name, aggregate.system, aggregate.rulings = self.name, self.system, dict(self.rulings)
        aggregate.winters = []


class RulingChanged(Event):
    key: str
    value: Any
    previous: Any
    reason: str

    def apply(self, aggregate: Any) -> None:
        aggregate.rulings = {**aggregate.rulings, self.key: self.value}


class WinterBegan(Event):
    """The campaign-wide half of a Winter Phase: the year and its one land roll."""

    year: int
    land_roll: int
    land_modifier: int
    source: str
    dice: DiceRecord = DiceRecord()  # the land roll, when the ledger rolled it

    def apply(self, aggregate: Any) -> None:
        aggregate.winters = [*aggregate.winters, self.year]


class Campaign(Aggregate):
    """State: name, system, rulings (the values in force), winters (years whose Winter Phase ran).

    Events are module-level classes: the library would re-create nested ones."""

    def change_ruling(self, key: str, value: Any, reason: str, by: str, timestamp: datetime) -> None:
        self.trigger_event(RulingChanged, key=key, value=value, previous=self.rulings.get(key), reason=reason, by=by,
                           timestamp=timestamp)
