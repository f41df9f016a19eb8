"""What a correction form needs of one event (the table view's "correct this"): its dice, each by the name
`amend REF --roll NAME=FACES` corrects it under, in the table's words, with their faces as recorded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar
from uuid import UUID

from ....domain.errors import NotFound
from ..reply import Reply
from .base import Query, answers, campaign_by_id, required

if TYPE_CHECKING:
    from ..ledger import Ledger


@dataclass(frozen=True, kw_only=True)
class EventDice(Query):
    """The dice of a campaign's event at a log position, as a correction names them (`correctable`)."""

    query: ClassVar[str] = "event dice"
    campaign: str = required("The campaign's id.")
    position: int = required("The event's log position.")


@answers(EventDice)
def event_dice(ledger: Ledger, asked: EventDice) -> Reply:
    from ....domain.explain import explain
    from ..views.history import correctable, decoded, notifications_at

    campaign, _, system = campaign_by_id(ledger.app, asked.campaign)
    app = ledger.app
    names = {UUID(ident): name for ident, name, _ in app.index.characters(campaign)}
    found = next(iter(notifications_at(app, [asked.position])), None) if asked.position >= 1 else None
    if found is None or (found.originator_id not in names and found.originator_id != campaign):
        raise NotFound(f"campaign has no event at #{asked.position}")
    event = decoded(app, found)
    who = names.get(found.originator_id, "")
    text = explain(event, who, system, app.index.position_of)
    document = {
        "position": asked.position,
        "type": type(event).__name__,
        "character": who or None,
        "text": text,
        "correctable": correctable(event),
    }
    return Reply.of(document, text)
