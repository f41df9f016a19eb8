"""REF: an event id, a log position (`#123`) or an ISO-8601 time, resolved to a log position."""

from __future__ import annotations

from datetime import datetime, timezone
from uuid import UUID

from ..domain.errors import BadInput, NotFound
from ..projections.index import Index, iso


def position(index: Index, campaign_id: UUID, ref: str) -> int:
    """The log position REF names within the campaign (inclusive bound for --as-of/--until)."""
    index.catch_up()
    text = ref.strip()
    if text.startswith("#"):
        try:
            found = int(text[1:])
        except ValueError:
            raise BadInput(f"bad REF {ref!r}: #POSITION takes a whole number") from None
        if found < 1:
            raise BadInput(f"bad REF {ref!r}: positions start at #1")
        last = index.position()
        if found > last:
            raise BadInput(f"bad REF {ref!r}: the log ends at #{last}")
        return found
    try:
        ident = str(UUID(text))
    except ValueError:
        return _at_time(index, campaign_id, text)
    found = index.by_event_id(campaign_id, ident)
    if found is None:
        raise NotFound(f"no event {text} in this campaign")
    return found


def _at_time(index: Index, campaign_id: UUID, text: str) -> int:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(f"bad REF {text!r}: expected an event id, #POSITION or an ISO-8601 time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    found = index.at_time(campaign_id, iso(moment.astimezone(timezone.utc)))
    if found is None:
        raise NotFound(f"no event at or before {text} in this campaign")
    return found
