"""Reading the log: a campaign's (or a character's) events with their positions, oldest first."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from uuid import UUID

from ....domain.amendments import Amended
from ....domain.explain import explain
from ....domain.ids import event_id
from ....domain.registry import SYSTEMS
from ..refs import since_position, until_position
from .campaigns import session_bounds
from .stored import PAGE, Stored, decoded, notifications_at
from .told import corrected, local_time

if TYPE_CHECKING:
    from ....domain.events import Event
    from ....domain.refold import Replayed
    from ...store.chronicle import Chronicle
    from ..session import Session

BASE_FIELDS = {"originator_id", "originator_version", "timestamp", "by", "hash", "prev_hash", "originator_topic"}


def events(
    session: Session,
    name: str | None = None,
    since: str | None = None,
    until: str | None = None,
    tail: int | None = None,
    sitting: str | None = None,
    data: bool = True,
    keep: list[Event] | None = None,
) -> Iterator[dict[str, Any]]:
    """Each event of the campaign (of one character when `name`), described for `log`: at or after
    `since`, at or before `until`, within session `sitting` (N or `last`), the newest `tail` of them,
    oldest first. Without `data` the event's fields are left out (people read its sentence); `keep`
    collects the domain events themselves, for a caller that folds them (each is decoded once)."""
    app, campaign = session.app, session.campaign
    index = app.index
    index.catch_up()
    originator = None
    if name is not None:
        originator = session.character_id(name)  # an unknown name is reported, with any near miss
    low = since_position(index, campaign.id, since) if since else 0
    high = until_position(index, campaign.id, until) if until else None
    if sitting is not None:
        start, end = session_bounds(session, sitting)
        low = max(low, start)
        high = end if high is None else high if end is None else min(high, end)
    if (high is not None and high < low) or tail == 0:
        positions = []
    else:
        named = _name_of(index, campaign.id, originator)
        positions = index.log(campaign.id, originator, low, high, newest=tail, named=named)
    names = {UUID(ident): who for ident, who, _ in index.characters(campaign.id)}
    corrections, changed = amendments(app, campaign.id, changes=True) if positions else ({}, {})
    for notification in notifications_at(app, positions):
        event = decoded(app, notification)
        if keep is not None:
            keep.append(event)
        ident = event_id(event.originator_id, event.originator_version)
        who = names.get(event.originator_id)
        described = describe(event, notification.id, ident, who, campaign.system, data, index.position_of)
        if ident in corrections:
            described["amended"] = corrections[ident]
        if ident in changed:
            described["summary"] = struck(event, who or "", campaign.system, described["summary"], changed[ident])
        elif ident in corrections:
            described["summary"] += " " + " ".join(corrected(a) for a in corrections[ident])
        yield described


def _name_of(index: Any, campaign_id: UUID, originator: UUID | None) -> str | None:
    """The character's name as the index holds it (the events that name it are found by it)."""
    if originator is None:
        return None
    return next((who for ident, who, _ in index.characters(campaign_id) if UUID(ident) == originator), None)


def amendments(app: Chronicle, campaign_id: UUID, changes: bool = False) -> Any:
    """Which events were voided or superseded, by whom and why (read from the Amended events only); with
    `changes`, also each event whose recorded outcome a correction changed, by its id: `(found, changed)`."""
    app.index.catch_up()
    positions = app.index.amendments(campaign_id)
    found: dict[str, list[dict[str, Any]]] = {}
    changed: dict[str, list[dict[str, Any]]] = {}
    names = {UUID(ident): who for ident, who, _ in app.index.characters(campaign_id)} if positions else {}
    for notification in notifications_at(app, positions):
        event = decoded(app, notification)
        assert isinstance(event, Amended)  # the index's amendments are Amended events
        said = {
            "event": event_id(event.originator_id, event.originator_version),
            "position": notification.id,
            "by": event.by,
            "reason": event.reason,
            "void": event.void,
        }
        found.setdefault(event.target, []).append(
            {**said, "summary": explain(event, names.get(event.originator_id, ""), None, app.index.position_of)}
        )
        for change in event.changes:
            if change.get("hit"):  # a hit only the correction makes: it has no event of its own to tell
                continue
            ident = change.get("event") or event_id(event.originator_id, change["version"])
            changed.setdefault(ident, []).append({**said, "change": change})
    return (found, changed) if changes else found


def struck(event: Event, name: str, system: str, told: str, changes: list[dict[str, Any]]) -> str:
    """An event a correction changed, told as it now stands: its sentence as recorded struck (~~...~~) and,
    beside it, its sentence with the corrected outcome (or that it no longer counts), and which correction."""
    counts, fields = True, {}
    for each in changes:  # in log order: a later correction's values replace an earlier one's
        change = each["change"]
        if change["field"] == "counts":
            counts = bool(change["replayed"])
        else:
            fields[change["field"]] = change["replayed"]
    authors: dict[str, list[str]] = {}
    for each in _once(changes):
        authors.setdefault(each["by"], []).append(f"#{each['position']}")
    where = _listed([f"{_listed(places)} by {by}" for by, places in authors.items()])
    said = dict.fromkeys(" ".join(each["reason"].split()) for each in changes if each["reason"].strip())
    reasons = "; ".join(f'"{reason}"' for reason in said)
    because = f": {reasons}" if reasons else ""
    if not counts:
        return f"~~{told}~~ It no longer counts (corrected at {where}{because})."
    outcome = getattr(event, "outcome", None)
    recorded = {} if outcome is None else outcome.model_dump(mode="json")
    if outcome is None or all(recorded.get(key) == value for key, value in fields.items()):
        return f"{told} (Corrected at {where}{because}: it stands as recorded.)"
    try:
        now = event.model_copy(update={"outcome": type(outcome).model_validate({**recorded, **fields})})
        again = explain(now, name, system)
    except Exception:  # noqa: BLE001 - an outcome these changes cannot rebuild is told by the changes alone
        again = "Its outcome changed."
    return f"~~{told}~~ {again} (corrected at {where}{because})."


def _once(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen, found = set(), []
    for each in changes:
        if each["position"] not in seen:
            seen.add(each["position"])
            found.append(each)
    return found


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def campaign_notifications(
    app: Chronicle, campaign_id: UUID, catch_up: bool = True
) -> Iterator[tuple[int, Stored | None]]:
    """(position, notification) for every event the index has for the campaign, oldest first, in
    bounded memory; the notification is None where the log no longer has it (deleted after it
    was recorded). The index is caught up first unless the caller did."""
    if catch_up:
        app.index.catch_up()
    for positions in app.index.position_pages(campaign_id, PAGE):
        found = {notification.id: notification for notification in notifications_at(app, positions)}
        for at in positions:
            yield at, found.get(at)


def describe(
    event: Event,
    pos: int,
    ident: str,
    character: str | None,
    system: str | None = None,
    data: bool = True,
    position_of: Callable[[UUID, int], int] | None = None,
) -> dict[str, Any]:
    """The event as `log --json` has it (ISO time in UTC), with its sentence (`summary`) and local time;
    with `position_of` (the index's), a correction's sentence names events by their log positions."""
    described = {
        "id": ident,
        "position": pos,
        "time": event.timestamp.isoformat(),
        "local_time": local_time(event.timestamp),
        "by": event.by,
        "character": character,
        "version": event.originator_version,
        "type": type(event).__name__,
        "summary": explain(event, character or "", system or system_of(event), position_of),
        "key": event.signed.key if event.signed is not None else None,  # whose key signed it (None: unsigned)
    }
    if data:
        described["data"] = event.model_dump(mode="json", exclude=BASE_FIELDS)
        described["correctable"] = correctable(event)
    return described


def correctable(event: Event) -> list[dict[str, Any]]:
    """The dice an event rolled, by the name `amend REF --roll NAME=FACES` corrects each under, with how the
    table says it and its faces: `[{"roll": "save:1", "says": "hit 1's save", "faces": [10]}]`."""
    dice = getattr(event, "dice", None)
    if dice is None:
        return []
    from ....domain.changes import purpose_words

    found: dict[str, list[int]] = {}
    for roll in dice.rolls:
        found.setdefault(roll.purpose, []).extend(roll.faces)
    return [{"roll": purpose, "says": purpose_words(purpose), "faces": faces} for purpose, faces in found.items()]


def system_of(event: object) -> str | None:
    """The rule system whose package defines the event (None for the common events)."""
    module = type(event).__module__
    return next((spec.name for spec in SYSTEMS if f".{spec.package}." in module), None)


def retold(system: str, name: str, before: list[Replayed], after: list[Replayed]) -> list[dict[str, Any]]:
    """Each event a re-derivation (`domain.refold`) decided differently, told as recorded and as replayed."""
    told = []
    for old, new in zip(before, after, strict=False):
        if old.outcome == new.outcome:
            continue
        either = old.event or new.event
        if either is None:  # voided both ways: the outcomes were equal (None)
            continue
        told.append(
            {
                "event": event_id(either.originator_id, old.version),
                "version": old.version,
                "character": name,
                "recorded": explain(old.event, name, system) if old.event else "It did not count.",
                "replayed": explain(new.event, name, system) if new.event else "It no longer counts.",
            }
        )
    return told
