"""A character's whole state as one typed model: what a snapshot stores and a read-model row keeps.

Its sheet and condition are kept as the JSON their system's models read back. `head_hash` travels
with it: the hash chain continues after a snapshot. The write side (ledger/store/snapshots.py) and the
read side (projections/characters.py) both use it, so neither depends on the other.
"""

from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from . import systems
from .aggregate import Aggregate
from .model import Model

if TYPE_CHECKING:
    from .character import Character

A = TypeVar("A", bound=Aggregate)


class CharacterState(Model):
    created_on: datetime
    modified_on: datetime
    campaign_id: UUID
    name: str
    system: str
    kind: str
    sheet: dict[str, Any]
    condition: dict[str, Any]
    head_hash: str
    retired: bool = False
    npc: bool = False

    @classmethod
    def of(cls, character: "Character") -> "CharacterState":
        return cls(
            created_on=character.created_on,
            modified_on=character.modified_on,
            campaign_id=character.campaign_id,
            name=character.name,
            system=character.system,
            kind=character.kind,
            sheet=character.sheet.model_dump(mode="json"),
            condition=character.condition.model_dump(mode="json"),
            head_hash=character.head_hash,
            retired=character.retired,
            npc=character.npc,
        )

    def restore(self, cls: type[A], ident: UUID, version: int) -> A:
        """The Character this state describes, at `version`, as if folded from its events."""
        rules = systems.get(self.system)
        # An aggregate (not a frozen model) made from its state as the library's own snapshots restore one
        character = object.__new__(cls)
        character.__dict__.update(
            {
                "_id": ident,
                "_version": version,
                "_created_on": self.created_on,
                "_modified_on": self.modified_on,
                "_pending_events": [],
                "campaign_id": self.campaign_id,
                "name": self.name,
                "system": self.system,
                "kind": self.kind,
                "sheet": rules.Sheet.model_validate(self.sheet),
                "condition": rules.Condition.model_validate(self.condition),
                "head_hash": self.head_hash,
                "retired": self.retired,
                "npc": self.npc,
            }
        )
        return character
