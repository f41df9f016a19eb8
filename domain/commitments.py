"""The ledger's commitment to a chain of dice seeds, an event of the campaign (docs/fair-dice.md)."""

from typing import TYPE_CHECKING

from pydantic import Field

from .events import Event
from .fair_dice import Hex64

if TYPE_CHECKING:
    from .campaign import Campaign


class DiceCommitted(Event):
    """The ledger's commitment to its next chain of seeds: its first seed (`head`, s_0) and how many
    rolls it serves (`length`), recorded before any of them is used."""

    head: Hex64
    length: int = Field(ge=1)

    def apply(self, aggregate: "Campaign") -> None:
        """The chain is the log's to show: the campaign itself is unchanged."""
