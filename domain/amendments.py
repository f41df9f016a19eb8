"""Corrections: an `Amended` event voids or supersedes an earlier event of the same character.

Nothing is edited: the original stays in the log, and the amendment records the state that
re-deriving the character's whole history (with the correction) produced, so folding the log
as it is gives the corrected state, and `verify` can re-derive the amendment itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

    def apply(self, aggregate: Character) -> None:
        rules = systems.get(aggregate.system)
        aggregate.sheet = rules.Sheet.model_validate(self.sheet)
        aggregate.condition = rules.Condition.model_validate(self.condition)
