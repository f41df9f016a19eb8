"""The index read model: campaigns, characters and one row per event (position, id, author, time).

It answers "which campaign, which character, which position" without reading the history, and
catches up from the notification log (tracked, so each notification is processed exactly once).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from ..domain.campaign import CampaignStarted
from ..domain.ids import event_id
from .store import ViewStore

VIEW = "index"
BATCH = 5000
CREATIONS = ("chronicle.domain.campaign:CampaignStarted", "chronicle.domain.character:CharacterRegistered")

DDL = (
    "CREATE TABLE IF NOT EXISTS chronicle_campaigns (id TEXT PRIMARY KEY, name TEXT UNIQUE, system TEXT, position BIGINT)",
    "CREATE TABLE IF NOT EXISTS chronicle_characters (id TEXT PRIMARY KEY, campaign_id TEXT, name TEXT, system TEXT,"
    " kind TEXT, position BIGINT)",
    "CREATE TABLE IF NOT EXISTS chronicle_log (position BIGINT PRIMARY KEY, event_id TEXT UNIQUE, campaign_id TEXT,"
    " originator_id TEXT, version INTEGER, topic TEXT, time TEXT, by_name TEXT)",
    "CREATE INDEX IF NOT EXISTS chronicle_log_originator ON chronicle_log (originator_id, version)",
    "CREATE INDEX IF NOT EXISTS chronicle_log_campaign ON chronicle_log (campaign_id, position)",
)
TABLES = ("chronicle_campaigns", "chronicle_characters", "chronicle_log")


def iso(moment: Any) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f%z")


def iso_text(stamp: str) -> str:
    """`iso` of a stored timestamp: the usual UTC form with microseconds ("...:SS.ffffffZ") is
    rewritten as a string, anything else is parsed first."""
    if len(stamp) == 27 and stamp[19] == "." and stamp[26] == "Z":
        return stamp[:26] + "+0000"
    return iso(datetime.fromisoformat(stamp))


class Index:
    def __init__(self, store: ViewStore):
        self.store = store
        store.ensure(VIEW, DDL)
        self._campaign_of: dict[str, str] = {}

    def catch_up(self, progress: Any = None, batch_size: int = BATCH) -> int:
        """Process every notification after the tracked position; returns how many."""
        app, store = self.store.app, self.store
        start, done = store.position(VIEW), 0
        while True:
            batch = app.recorder.select_notifications(start=start, limit=batch_size, inclusive_of_start=False)
            if not batch:
                return done
            rows, campaigns, characters = [], [], []
            for notification in batch:
                oid = str(notification.originator_id)
                if notification.topic in CREATIONS:
                    event = app.mapper.to_domain_event(notification)
                    if isinstance(event, CampaignStarted):
                        campaigns.append((oid, event.name, event.system, notification.id))
                        self._campaign_of[oid] = oid
                    else:
                        campaign = str(event.campaign_id)
                        characters.append((oid, campaign, event.name, event.system, event.kind, notification.id))
                        self._campaign_of[oid] = campaign
                    when, by = iso(event.timestamp), event.by
                else:  # only the envelope is needed: read the stored JSON, not the whole event model
                    state = app.mapper.decode_state(notification.state)
                    when, by = iso_text(state["timestamp"]), state["by"]
                campaign = self._campaign_of.get(oid) or self._lookup_campaign(oid)
                rows.append((notification.id, event_id(notification.originator_id, notification.originator_version),
                             campaign, oid, notification.originator_version, notification.topic, when, by))
            try:
                with store.transaction() as cursor:
                    store.executemany(cursor, "INSERT INTO chronicle_campaigns VALUES (?, ?, ?, ?)", campaigns)
                    store.executemany(cursor, "INSERT INTO chronicle_characters VALUES (?, ?, ?, ?, ?, ?)", characters)
                    store.executemany(cursor, "INSERT INTO chronicle_log VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
                    store.track(cursor, VIEW, batch[-1].id)
            except IntegrityError:  # another process indexed these first (all rolled back): resume after it
                start = store.position(VIEW)
                continue
            start, done = batch[-1].id, done + len(batch)
            if progress:
                progress(len(batch))

    def reset(self) -> None:
        """Forget every row and the position (rebuild replays from the first notification)."""
        with self.store.transaction() as cursor:
            for table in TABLES:
                self.store.execute(cursor, f"DELETE FROM {table}")
            self.store.reset(cursor, VIEW)
        self._campaign_of.clear()

    def _lookup_campaign(self, originator_id: str) -> str:
        rows = self.store.query("SELECT campaign_id FROM chronicle_characters WHERE id = ?", (originator_id,))
        campaign = rows[0][0] if rows else originator_id
        self._campaign_of[originator_id] = campaign
        return campaign

    # queries -------------------------------------------------------------------------------

    def campaigns(self) -> list[tuple[str, str, str]]:
        return [tuple(r) for r in self.store.query("SELECT id, name, system FROM chronicle_campaigns ORDER BY position")]

    def characters(self, campaign_id: UUID) -> list[tuple[str, str, str]]:
        rows = self.store.query(
            "SELECT id, name, kind FROM chronicle_characters WHERE campaign_id = ? ORDER BY position", (str(campaign_id),)
        )
        return [tuple(r) for r in rows]

    def log(self, campaign_id: UUID, originator_id: UUID | None = None, since: int = 0, until: int | None = None) -> list[Any]:
        sql = "SELECT position, event_id, originator_id, version, time, by_name FROM chronicle_log WHERE campaign_id = ?"
        params: list[Any] = [str(campaign_id)]
        if originator_id is not None:
            sql += " AND originator_id = ?"
            params.append(str(originator_id))
        sql += " AND position >= ?"
        params.append(since)
        if until is not None:
            sql += " AND position <= ?"
            params.append(until)
        return self.store.query(sql + " ORDER BY position", params)

    def by_event_id(self, campaign_id: UUID, ident: str) -> int | None:
        rows = self.store.query(
            "SELECT position FROM chronicle_log WHERE campaign_id = ? AND event_id = ?", (str(campaign_id), ident)
        )
        return rows[0][0] if rows else None

    def at_time(self, campaign_id: UUID, moment: str) -> int | None:
        rows = self.store.query(
            "SELECT MAX(position) FROM chronicle_log WHERE campaign_id = ? AND time <= ?", (str(campaign_id), moment)
        )
        return rows[0][0] if rows else None

    def version_at(self, originator_id: UUID, position: int) -> int | None:
        rows = self.store.query(
            "SELECT MAX(version) FROM chronicle_log WHERE originator_id = ? AND position <= ?",
            (str(originator_id), position),
        )
        return rows[0][0] if rows else None

    def count(self, campaign_id: UUID) -> int:
        return self.store.query("SELECT COUNT(*) FROM chronicle_log WHERE campaign_id = ?", (str(campaign_id),))[0][0]
