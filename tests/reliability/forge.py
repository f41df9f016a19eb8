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
    content = {k: v for k, v in state.items() if k not in ("hash", "class_version")}  # (as `checked_event` hashes)
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


def before_signatures(monkeypatch) -> None:
    """Make the commands run from now on record as a chronicle from before signatures did: no signature on any
    event, no creator's key on a new campaign (a ledger whose events `verify` counts as unsigned, not stripped)."""
    from chronicle.ledger.application.session import Session
    from chronicle.ledger.trust import signing

    start = Session.start_campaign

    def unkeyed(self, name, system, select=True, gm_key=None):
        return start(self, name, system, select, None)

    def unsigned(touched, signed_for) -> None:  # sealed, as every event was, but signed by nobody
        for aggregate, start in touched:
            fresh = aggregate.pending_events[start:]
            previous = fresh[0].prev_hash if fresh else ""
            for event in fresh:
                event.__dict__["prev_hash"] = previous
                previous = event.sealed().hash
            if fresh:
                aggregate.head_hash = previous

    monkeypatch.setattr(signing, "seal_with", unsigned)
    monkeypatch.setattr(Session, "start_campaign", unkeyed)


def signed(event, campaign, document: dict, nonce: str | None = None, signer=None):
    """A new sealed EVENT signed as a command of DOCUMENT in CAMPAIGN (by the user's identity unless SIGNER),
    and sealed again with its signature: what a forger holding that key would write."""
    from chronicle.ledger.trust.identity import load_or_create
    from chronicle.ledger.trust.signing import sign

    made = sign(signer or load_or_create(), campaign, document, nonce)
    return event.signed_with(event.prev_hash, made, made.model_dump(mode="json"))


def append(db: str, originator: object, topic: str, state: State) -> int:
    """A row appended to ORIGINATOR's chain by plain SQL: STATE as its next version, linked to its last
    event's hash and sealed as chronicle seals (a forger who holds the database). Returns its position."""
    table, at = _table(db)
    ident = uuid.UUID(str(originator))
    key = str(ident) if is_postgres(db) else ident.hex
    rows = sql(
        db, f"SELECT originator_version, state FROM {table} WHERE originator_id = ? ORDER BY originator_version", (key,)
    )
    version = rows[-1][0] + 1 if rows else 1
    data = dict(state)
    data["prev_hash"] = orjson.loads(bytes(rows[-1][1]))["hash"] if rows else ""
    data["hash"] = content_hash(topic, ident, version, data)
    sql(
        db,
        f"INSERT INTO {table} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
        (key, version, topic, orjson.dumps(data)),
    )
    ((position,),) = sql(
        db, f"SELECT {at} FROM {table} WHERE originator_id = ? AND originator_version = ?", (key, version)
    )
    return int(position)


def row(db: str, position: int) -> tuple[uuid.UUID, int, str, State]:
    """The event at POSITION: its aggregate, version, topic and stored state."""
    table, at = _table(db)
    ((originator, version, topic, state),) = sql(
        db, f"SELECT originator_id, originator_version, topic, state FROM {table} WHERE {at} = ?", (position,)
    )
    return uuid.UUID(str(originator)), version, topic, orjson.loads(bytes(state))


def elsewhere(monkeypatch, folder) -> None:
    """Go on as the same user (their key) from a chronicle folder that remembers no checkpoint: what the log
    holds is then met as it is, not against what this user saw before it was edited."""
    import os
    import shutil
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(mode=0o700, exist_ok=True)
    shutil.copy(Path(os.environ["CHRONICLE_HOME"]) / "identity.key", folder / "identity.key")
    (folder / "identity.key").chmod(0o600)
    monkeypatch.setenv("CHRONICLE_HOME", str(folder))
