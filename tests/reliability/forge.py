"""A forger who holds the database: edits an event's stored JSON and recomputes the hash of it and of every
later event of its aggregate, so every hash chain checks out again."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from typing import Any

import orjson

from chronicle.ledger.store.targets import is_postgres

from .edges import sql

State = dict[str, Any]


def _table(db: str) -> tuple[str, str]:
    return ("chronicle_events", "notification_id") if is_postgres(db) else ("stored_events", "rowid")


def content_hash(topic: str, originator: object, version: int, state: State) -> str:
    """The hash chronicle seals an event with: sha256 over its topic and content (its id and version in)."""
    content = {k: v for k, v in state.items() if k != "hash"}
    content.update(originator_id=str(uuid.UUID(str(originator))), originator_version=version)
    return hashlib.sha256(orjson.dumps([topic, content], option=orjson.OPT_SORT_KEYS)).hexdigest()


def rechain(db: str, position: int, change: Callable[[State], None]) -> None:
    """Apply CHANGE to the event at POSITION, then re-seal it and its aggregate's later events."""
    table, at = _table(db)
    ((originator,),) = sql(db, f"SELECT originator_id FROM {table} WHERE {at} = ?", (position,))
    rows = sql(
        db,
        f"SELECT {at}, originator_version, topic, state FROM {table} WHERE originator_id = ? "
        "ORDER BY originator_version",
        (originator,),
    )
    previous = None
    for row_at, version, topic, state in rows:
        data = orjson.loads(bytes(state))
        if row_at == position:
            change(data)
        if previous is not None and row_at >= position:
            data["prev_hash"] = previous
        if row_at >= position:
            data["hash"] = content_hash(topic, originator, version, data)
            sql(db, f"UPDATE {table} SET state = ? WHERE {at} = ?", (orjson.dumps(data), row_at))
        previous = data["hash"]


def reseal(lines: list[dict[str, Any]], changed: dict[str, Any]) -> None:
    """In an export's parsed lines: re-hash the CHANGED event (edited in place) and every later event of
    its aggregate, and write the closing line anew, as a forger of a backup would."""
    from chronicle.ledger.bulk.transfer import closing_line

    previous = None
    for line in lines:
        if "closing" in line or line.get("originator_id") != changed["originator_id"]:
            continue
        state = line["state"]
        if line["originator_version"] >= changed["originator_version"]:
            if previous is not None:
                state["prev_hash"] = previous
            state["hash"] = content_hash(line["topic"], line["originator_id"], line["originator_version"], state)
        previous = state["hash"]
    heads = {
        uuid.UUID(line["originator_id"]): (line["originator_version"], line["state"]["hash"])
        for line in lines
        if "closing" not in line
    }
    lines[-1] = orjson.loads(closing_line(heads))
