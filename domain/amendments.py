"""Corrections: an `Amended` event voids or supersedes an earlier event of the same character.

Nothing is edited: the original stays in the log, and the amendment records the state that
re-deriving the character's whole history (with the correction) produced, so folding the log
as it is gives the corrected state, and `verify` can re-derive the amendment itself.

`derivation` says how: 2, what `refold` does now (an attack's hits follow it, and every event counts,
so voiding a roll or a sheet change is a change); 1, an amendment recorded before (re-derived and
verified as it was decided then). It is left out of the stored JSON when 1, so an amendment recorded
before the field existed keeps its bytes and its hash.
"""

from typing import TYPE_CHECKING, Any

from pydantic import Field

from . import systems
from .events import Event

if TYPE_CHECKING:
    from .character import Character


class Amended(Event):
    target: str  # the amended event's id
    target_version: int
    reason: str
    void: bool = False
    inputs: dict[str, Any] | None = None  # replacement inputs (supersede)
    table: dict[str, list[int]] = {}  # replacement dice results by purpose (supersede)
    sheet: dict[str, Any] = {}  # the state after re-deriving the history (empty while provisional)
    condition: dict[str, Any] = {}
    changes: list[dict[str, Any]] = []  # what the re-derivation changed, for people reading the log
    derivation: int = Field(1, exclude_if=lambda value: value == 1)

    def apply(self, aggregate: "Character") -> None:
        rules = systems.get(aggregate.system)
        aggregate.sheet = rules.Sheet.model_validate(self.sheet)
        aggregate.condition = rules.Condition.model_validate(self.condition)
