"""The Character aggregate: a sheet and a condition, both evolved by the system's events."""

from typing import TYPE_CHECKING, Any
from uuid import UUID

from pydantic import Field

from . import systems
from .aggregate import Aggregate
from .events import Created, Resolution
from .ids import character_id  # noqa: F401  (characters are found by name)
from .model import Model


def _pc(value: object) -> bool:
    return value is False


class CharacterRegistered(Created):
    campaign_id: UUID
    name: str
    system: str
    kind: str = "character"
    sheet: dict[str, Any]
    # one of the others (a foe, a monster, the gm's people), not of the party; left out of a player
    # character's JSON, so events recorded before it keep their bytes and hashes
    npc: bool = Field(False, exclude_if=_pc)

    def apply(self, aggregate: "Character") -> None:
        rules = systems.get(self.system)
        aggregate.campaign_id, aggregate.name, aggregate.system = self.campaign_id, self.name, self.system
        aggregate.kind = self.kind
        aggregate.sheet = rules.Sheet.model_validate(self.sheet)
        aggregate.condition = rules.Condition()
        aggregate.retired = False
        aggregate.npc = self.npc


class Character(Aggregate):
    """State: campaign_id, name, system, kind, retired, and the system's `sheet` and `condition` models.
    Events are module-level classes: the library would re-create nested ones."""

    retired = False  # a snapshot taken before retirement existed restores without it
    npc = False  # one of the others (foes, the gm's people), not of the party

    if TYPE_CHECKING:  # declared for the type checker only: annotations would make the library a dataclass of it
        campaign_id: UUID
        name: str
        system: str
        kind: str
        sheet: Model  # its system's `Sheet`
        condition: Model  # its system's `Condition`

    def record(self, event_class: type[Resolution], **kwargs: Any) -> Resolution:
        self.trigger_event(event_class, **kwargs)
        return self.pending_events[-1]  # type: ignore[return-value]
