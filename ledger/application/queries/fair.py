"""What a page needs to derive a fair roll's faces again itself (docs/fair-dice.md, the browser's check in
`cli/web/static/fair.js`): never what the ledger keeps secret."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ....domain.errors import BadInput
from ..reply import Reply
from .base import Query, answers, campaign_by_id, required

if TYPE_CHECKING:
    from ..ledger import Ledger


@dataclass(frozen=True, kw_only=True)
class FairRolls(Query):
    """The fair rolls among some events of a campaign (at most 500 positions): each with its revealed seed,
    its device's seed, the ledger's dice as recorded, and the commitment its seed must hash back to."""

    query: ClassVar[str] = "fair rolls"
    campaign: str = required("The campaign's id.")
    positions: tuple[int, ...] = required("Log positions of the campaign's events.")


@answers(FairRolls)
def fair_rolls(ledger: Ledger, asked: FairRolls) -> Reply:
    from ..views.fair_dice import MOST
    from ..views.fair_dice import fair_rolls as rolls_of

    if len(asked.positions) > MOST:
        raise BadInput(f"positions= is up to {MOST} log positions, comma-separated")
    campaign, _, _ = campaign_by_id(ledger.app, asked.campaign)
    found = rolls_of(ledger.app, campaign, list(asked.positions))
    document = {"rolls": {str(at): roll for at, roll in found.items()}}
    return Reply.of(document, f"{len(found)} fair roll{'s' if len(found) != 1 else ''}.")
