"""`export` / `import`: the whole log of a campaign as JSON Lines, one event a line, oldest first.

A line is `{"id", "topic", "originator_id", "originator_version", "state"}` where `state` is the
stored event state as JSON. Import re-checks everything (hashes, chains, outcomes) before it
writes, then inserts all events in one transaction straight from that state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import resolve_topic

from ..domain.errors import BadInput, Refusal
from ..projections.index import event_id
from .history import _notifications
from .mapper import upcast
from .verify import Verifier


def export_lines(session: Any) -> Iterator[bytes]:
    app, campaign = session.app, session.campaign
    app.index.catch_up()
    positions = [row[0] for row in app.index.log(campaign.id)]
    for notification in _notifications(app, positions):
        state = app.mapper.decode_state(notification.state)
        yield orjson.dumps({
            "id": event_id(notification.originator_id, notification.originator_version),
            "topic": notification.topic,
            "originator_id": str(notification.originator_id),
            "originator_version": notification.originator_version,
            "state": state,
        }, option=orjson.OPT_SORT_KEYS)


def import_lines(app: Any, lines: Iterable[bytes | str]) -> dict[str, Any]:
    """Check every line, then write them all in one transaction; refuse (writing nothing) on any problem."""
    checker = Verifier()
    stored: list[StoredEvent] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = _parse(line, number)
        originator = UUID(record["originator_id"])
        state = dict(record["state"])
        event = _decode(record, originator, number)
        checker.feed(number, event)
        stored.append(StoredEvent(originator_id=originator, originator_version=record["originator_version"],
                                  topic=record["topic"], state=app.mapper._seal(app.mapper.transcoder.encode(state))))
    report = checker.report()
    if not report["ok"]:
        first = report["problems"][0]
        raise Refusal(f"the file does not verify: line {first['position']}: {first['problem']}"
                      f" ({len(report['problems'])} problem(s)); nothing was imported")
    try:
        app.recorder.insert_events(stored)
    except IntegrityError:
        raise Refusal("these events are already in the ledger (the campaign exists); nothing was imported") from None
    return {"events": len(stored)}


def _parse(line: bytes | str, number: int) -> dict[str, Any]:
    try:
        record = orjson.loads(line)
        keys = {"topic", "originator_id", "originator_version", "state"}
        if not isinstance(record, dict) or not keys <= set(record):
            raise ValueError(f"a line needs {sorted(keys)}")
        return record
    except (ValueError, orjson.JSONDecodeError) as error:
        raise BadInput(f"line {number}: not an exported event ({error})") from None


def _decode(record: dict[str, Any], originator: UUID, number: int) -> Any:
    try:
        cls = resolve_topic(record["topic"])
        state = dict(record["state"])
        upcast(cls, state)
        return cls(originator_id=originator, originator_version=record["originator_version"], **state)
    except Exception as error:  # unreadable events are reported by the verifier as problems
        return error
