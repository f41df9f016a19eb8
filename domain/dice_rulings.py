"""The ruling every system's rulings share: when the table's own dice may stand in for the ledger's fair
dice (docs/fair-dice.md). The application layer holds each roll to it (ledger/application/fair_dice.py)."""

from typing import Literal

from pydantic import Field

from .model import Model

FairDice = Literal["optional", "devices", "players", "everyone"]


class LedgerRulings(Model):
    """Rulings of the ledger itself, the same in every system (each system's `Rulings` derives from it)."""

    fair_dice: FairDice = Field(
        "optional",
        description="Whose rolls must be the ledger's fair dice. optional: the table's own dice may be given for "
        "any roll. devices: a roll asked for from a participant's own device (the table view's forms, a "
        "document they signed) is the ledger's, with that device's seed; the table's dice or a missing device "
        "seed are refused. players: that, and no player gives the table's dice from any front door. everyone: "
        "no one gives the table's dice; every roll is the ledger's.",
        json_schema_extra={
            "basis": "No rule text says who rolls; tables decide whether a player's roll must be one that neither "
            "the player nor the gm could choose. The ledger's fair dice come from a chain it committed to "
            "before the roll, mixed with a secret the asking device drew (docs/fair-dice.md); a table that wants "
            "every roll from a phone to be such a roll says so here."
        },
    )
