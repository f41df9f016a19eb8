"""The Character aggregate: a sheet and a condition, both evolved by the system's events."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from . import systems
from .aggregate import Aggregate
from .events import Created, Resolution
from .ids import character_id  # noqa: F401  (characters are found by name)


class CharacterRegistered(Created):
    campaign_id: UUID
    name: str
    system: str
    kind: str = "character"
    sheet: dict[str, Any]

    def apply(self, aggregate: Any) -> None:
        rules = systems.get(self.system)
        aggregate.campaign_id, aggregate.name, aggregate.system = self.campaign_id, self.name, self.system
        aggregate.kind = self.kind
        aggregate.sheet = rules.Sheet.model_validate(self.sheet)
        aggregate.condition = rules.Condition()
        aggregate.retired = False


class Character(Aggregate):
    """State: campaign_id, name, system, kind, retired, and the system's `sheet` and `condition` models.
    Events are module-level classes: the library would re-create nested ones."""

    retired = False  # a snapshot taken before retirement existed restores without it

    def record(self, event_class: type[Resolution], **kwargs: Any) -> Resolution:
        self.trigger_event(event_class, **kwargs)
        return self.pending_events[-1]  # type: ignore[return-value]
