"""What a recorded action returns: the event, the character before and after it, and what the table
gave that the rules did not need. Its document and sentences are built when read (a batch reads none)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ...domain import systems
from ...domain.events import Resolution
from ...domain.explain import explain
from ...domain.ids import event_id
from ...domain.model import Model

if TYPE_CHECKING:
    from ...domain.systems import RuleSystem


@dataclass(frozen=True)
class Recorded:
    event: Resolution
    name: str
    system: str
    sheet_before: Model
    condition_before: Model
    sheet: Model  # after the event (the character's models are replaced by later events, never changed)
    condition: Model
    ignored: dict[str, list[int]] = field(default_factory=dict)  # table dice for purposes the rules did not use

    @property
    def event_id(self) -> str:
        return event_id(self.event.originator_id, self.event.originator_version)

    @property
    def version(self) -> int:
        return self.event.originator_version

    @property
    def rules(self) -> RuleSystem:
        return systems.get(self.system)

    @cached_property
    def document(self) -> dict[str, Any]:
        """`{"event", "version", "character", "type", **outcome, "condition", "dice"}` (and `ignored`)."""
        rules = self.rules
        result: dict[str, Any] = {
            "event": self.event_id,
            "version": self.version,
            "character": self.name,
            "type": type(self.event).__name__,
        }
        result.update(self.event.outcome.model_dump(mode="json"))
        result["condition"] = rules.view(self.sheet, self.condition)["condition"]
        result["dice"] = [roll.model_dump(mode="json") for roll in self.event.dice.rolls]
        if self.ignored:
            result["ignored"] = self.ignored
        return result

    def before(self) -> dict[str, Any]:
        """The condition as the system's view shows it, before the event."""
        return self.rules.view(self.sheet_before, self.condition_before)["condition"]

    def sentences(self) -> str:
        """The event told for people, as the log tells it."""
        return explain(self.event, self.name, self.system)
