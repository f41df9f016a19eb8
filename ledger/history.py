"""Reading the log: a campaign's (or a character's) events with their positions, oldest first."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple
from uuid import UUID

from ..domain.character import character_id
from ..domain.ids import event_id
from ..projections.store import aggregate_id
from .feed import COLUMNS
from .refs import position

BASE_FIELDS = {"originator_id", "originator_version", "timestamp", "by", "hash", "prev_hash", "originator_topic"}
PAGE = 2000


def events(session: Any, name: str | None = None, since: str | None = None, until: str | None = None) -> Iterator[dict[str, Any]]:
    """Each event of the campaign (of one character when `name`), described for `log`."""
    app, campaign = session.app, session.campaign
    index = app.index
    index.catch_up()
    originator = None
    if name is not None:
        session.character(name)  # unknown names are reported
        originator = character_id(campaign.id, name)
    low = position(index, campaign.id, since) if since else 0
    high = position(index, campaign.id, until) if until else None
    names = {UUID(ident): who for ident, who, _ in index.characters(campaign.id)}
    corrections = amendments(app, campaign.id)
    for notification in notifications_at(app, index.log(campaign.id, originator, low, high)):
        event = app.mapper.to_domain_event(notification)
        ident = event_id(event.originator_id, event.originator_version)
        described = describe(event, notification.id, ident, names.get(event.originator_id))
        if ident in corrections:
            described["amended"] = corrections[ident]
            described["summary"] += "  [" + "; ".join(
                f"{'voided' if a['void'] else 'superseded'} by {a['by']} at #{a['position']}: {a['reason']}"
                for a in corrections[ident]) + "]"
        yield described


def amendments(app: Any, campaign_id: Any) -> dict[str, list[dict[str, Any]]]:
    """Which events were voided or superseded, by whom and why (read from the Amended events only)."""
    app.index.catch_up()
    positions = app.index.amendments(campaign_id)
    found: dict[str, list[dict[str, Any]]] = {}
    for notification in notifications_at(app, positions):
        event = app.mapper.to_domain_event(notification)
        found.setdefault(event.target, []).append({
            "event": event_id(event.originator_id, event.originator_version), "position": notification.id,
            "by": event.by, "reason": event.reason, "void": event.void})
    return found


def campaign_notifications(app: Any, campaign_id: UUID, catch_up: bool = True) -> Iterator[tuple[int, Any | None]]:
    """(position, notification) for every event the index has for the campaign, oldest first, in
    bounded memory; the notification is None where the log no longer has it (deleted after it
    was recorded). The index is caught up first unless the caller did."""
    if catch_up:
        app.index.catch_up()
    for positions in app.index.position_pages(campaign_id, PAGE):
        found = {notification.id: notification for notification in notifications_at(app, positions)}
        for at in positions:
            yield at, found.get(at)


class Stored(NamedTuple):
    """A row of the events table, as the library's `Notification` has it."""

    id: int
    originator_id: UUID
    originator_version: int
    topic: str
    state: bytes




def notifications_at(app: Any, positions: list[int]) -> Iterator[Stored]:
    """The events at `positions` (sorted, known to the index), a page at a time: a page whose
    positions are close together is read as their range, a sparse one (a character's events in a
    long campaign) position by position, so neither reads the rest of the log."""
    table, at = app.views.events
    select = f"SELECT {at}, {COLUMNS} FROM {table} WHERE "
    uuids: dict[Any, UUID] = {}
    for i in range(0, len(positions), PAGE):
        page = positions[i:i + PAGE]
        if page[-1] - page[0] < 2 * len(page):
            wanted = set(page)
            rows = [row for row in app.views.query(select + f"{at} BETWEEN ? AND ? ORDER BY {at}", (page[0], page[-1]))
                    if row[0] in wanted]
        else:
            rows = app.views.query(select + f"{at} IN ({', '.join('?' * len(page))}) ORDER BY {at}", page)
        yield from stored(rows, uuids)


def stored(rows: Iterable[Sequence[Any]], uuids: dict[Any, UUID]) -> list[Stored]:
    """Rows of (position, *COLUMNS) as `Stored`, each aggregate's id made a UUID once (`uuids`)."""
    found = []
    for position, oid, version, topic, state in rows:
        ident = uuids.get(oid)
        if ident is None:
            ident = uuids[oid] = aggregate_id(oid)
        found.append(Stored(position, ident, version, topic, bytes(state)))
    return found


def describe(event: Any, pos: int, ident: str, character: str | None) -> dict[str, Any]:
    data = event.model_dump(mode="json", exclude=BASE_FIELDS)
    return {
        "id": ident,
        "position": pos,
        "time": event.timestamp.isoformat(),
        "by": event.by,
        "character": character,
        "version": event.originator_version,
        "type": type(event).__name__,
        "data": data,
        "summary": headline(type(event).__name__, data),
    }


def headline(kind: str, data: dict[str, Any]) -> str:
    """What the event decided, in a few words for people."""
    if "outcome" in data:
        outcome = data["outcome"]
        if isinstance(outcome, dict):
            shown = {k: v for k, v in outcome.items() if not isinstance(v, (dict, list)) and v not in (None, "", [])}
            return ", ".join(f"{k}={v}" for k, v in list(shown.items())[:6])
        return str(outcome)
    if kind == "DiceRolled":
        return f"{data['notation']} = {data['total']} {list(data['faces'])}" + (f" ({data['reason']})" if data.get("reason") else "")
    if kind == "Amended":
        verb = "voids" if data["void"] else f"supersedes with {data['inputs'] or {}} {data['table'] or {}}"
        return f"{verb} {data['target'][:8]}: {data['reason']} ({len(data['changes'])} outcome change(s))"
    if kind == "RulingChanged":
        return f"{data['key']}: {data['previous']} -> {data['value']} ({data['reason']})"
    if kind == "CampaignStarted":
        return f"campaign {data['name']} ({data['system']}) started"
    if kind == "CharacterRegistered":
        return f"{data['name']} registered"
    return ", ".join(f"{k}={v}" for k, v in data.items() if not isinstance(v, (dict, list)))
