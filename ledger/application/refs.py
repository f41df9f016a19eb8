"""REF: an event id, a log position (`#123`) or an ISO-8601 time, resolved to a log position.

A time written without a zone is local time (docs/scripting.md, Names, references and time), like the times `log` shows.
"""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from ...domain.errors import BadInput, NotFound
from ...domain.text import printable
from ...projections.index import CAMPAIGN, Index, iso


def position(index: Index, campaign_id: UUID, ref: str) -> int:
    """The log position REF names within the campaign (inclusive bound for --as-of/--until): for a
    time, the last event at or before it."""
    index.catch_up()
    found = _exact(index, campaign_id, ref)
    if found is not None:
        return found
    text = ref.strip()
    found = index.at_time(campaign_id, _utc(text))
    if found is None:
        raise NotFound(f"no event at or before {shown(text)} in this campaign")
    return found


def since_position(index: Index, campaign_id: UUID, ref: str) -> int:
    """The lowest position `log --since REF` shows: for a time, the first event at or after it (past
    the end of the log when there is none, so nothing is shown)."""
    index.catch_up()
    found = _exact(index, campaign_id, ref)
    if found is not None:
        return found
    rows = index.store.query(
        f"SELECT MIN(position) FROM chronicle_log WHERE campaign = {CAMPAIGN} AND time >= ?",
        (str(campaign_id), _utc(ref.strip())),
    )
    first = rows[0][0] if rows else None
    return index.position() + 1 if first is None else int(first)


def until_position(index: Index, campaign_id: UUID, ref: str) -> int:
    """The highest position `log --until REF` shows: for a time, the last event at or before it
    (0 when there is none, so nothing is shown)."""
    index.catch_up()
    found = _exact(index, campaign_id, ref)
    if found is not None:
        return found
    last = index.at_time(campaign_id, _utc(ref.strip()))
    return 0 if last is None else int(last)


def _exact(index: Index, campaign_id: UUID, ref: str) -> int | None:
    """The position an event id or `#N` names; None when REF is neither (a time, then)."""
    text = ref.strip()
    if text.startswith("#"):
        digits = text[1:].strip()
        if not digits.isascii() or not digits.isdigit():
            raise BadInput(f"bad REF {shown(ref)}: #POSITION takes a whole number")
        digits = digits.lstrip("0") or "0"
        last = index.position()
        if len(digits) > len(str(last)) or int(digits) > last:  # (5,000 digits are never converted)
            raise BadInput(f"bad REF {shown(ref)}: the log ends at #{last}")
        found = int(digits)
        if found < 1:
            raise BadInput(f"bad REF {shown(ref)}: positions start at #1")
        return found
    try:
        ident = str(UUID(text))
    except ValueError:
        return None
    at = index.by_event_id(campaign_id, ident)
    if at is None:
        raise NotFound(f"no event {text} in this campaign")
    return at


def _utc(text: str) -> str:
    """The moment TEXT names, as the index stores times (UTC); without a zone it is local time."""
    try:
        moment = datetime.fromisoformat(text)
        if moment.tzinfo is None:
            moment = moment.astimezone()  # a naive datetime is taken as local time
        return iso(moment.astimezone(UTC))
    except (ValueError, OverflowError):
        raise BadInput(f"bad REF {shown(text)}: expected an event id, #POSITION or an ISO-8601 time") from None


def shown(ref: str) -> str:
    """REF as a message names it: quoted, escaped, and shortened when long."""
    return printable(ref if len(ref) <= 60 else ref[:60] + "...")
