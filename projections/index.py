"""The index read model: campaigns, characters and one row per event (position, id, author, time).

It answers "which campaign, which character, which position" without reading the history, and
catches up from the notification log (tracked, so each notification is processed exactly once).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from ..domain.campaign import CampaignStarted
from ..domain.ids import event_id
from ..ledger.mapper import event_from_state
from .catchup import BATCH, Decoded, catch_up
from .store import ViewStore

VIEW = "index"
VERSION = 3  # of the tables below: a ledger whose index was made by another version rebuilds it
CREATIONS = ("chronicle.domain.campaign:CampaignStarted", "chronicle.domain.character:CharacterRegistered")
AMENDED = "chronicle.domain.amendments:Amended"  # few, and looked up by every `log`: an index of their own

TABLES = {
    "chronicle_campaigns": "id TEXT NOT NULL, name TEXT NOT NULL, system TEXT, position BIGINT",
    "chronicle_characters": "id TEXT NOT NULL, campaign_id TEXT, name TEXT, system TEXT, kind TEXT, position BIGINT",
    "chronicle_log": "position {position}, event_id TEXT NOT NULL, campaign_id TEXT, originator_id TEXT,"
                     " version INTEGER, topic TEXT, time TEXT, by_name TEXT",
}
INDEXES = (
    "CREATE UNIQUE INDEX IF NOT EXISTS chronicle_campaigns_id ON chronicle_campaigns (id)",
    "CREATE UNIQUE INDEX IF NOT EXISTS chronicle_campaigns_name ON chronicle_campaigns (name)",
    "CREATE UNIQUE INDEX IF NOT EXISTS chronicle_characters_id ON chronicle_characters (id)",
    "CREATE UNIQUE INDEX IF NOT EXISTS chronicle_log_event ON chronicle_log (event_id)",
    "CREATE INDEX IF NOT EXISTS chronicle_log_campaign ON chronicle_log (campaign_id, position)",
    f"CREATE INDEX IF NOT EXISTS chronicle_log_amended ON chronicle_log (campaign_id, position) WHERE topic = '{AMENDED}'",
)


def iso(moment: Any) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f%z")


def iso_text(stamp: str) -> str:
    """`iso` of a stored timestamp: the usual UTC form with microseconds ("...:SS.ffffffZ") is
    rewritten as a string, anything else is parsed first."""
    if len(stamp) == 27 and stamp[19] == "." and stamp[26] == "Z":
        return stamp[:26] + "+0000"
    return iso(datetime.fromisoformat(stamp))


class Index:
    """With a `suffix` (`rebuild`), rows go to fresh tables named with it."""

    VIEW = VIEW

    def __init__(self, store: ViewStore, suffix: str = ""):
        self.store = store
        if not suffix:
            store.ensure(VIEW, VERSION, TABLES, INDEXES)
        self._known: dict[UUID, tuple[str, str]] = {}  # aggregate -> (its id as text, its campaign's)
        self._suffix = suffix

    def catch_up(self, progress: Any = None, batch_size: int = BATCH) -> int:
        """Process every notification after the tracked position; returns how many."""
        return catch_up([self], progress, batch_size)

    # folding -------------------------------------------------------------------------------

    def position(self) -> int:
        return self.store.position(VIEW)

    def fold(self, events: Sequence[Decoded]) -> dict[str, list[tuple[Any, ...]]]:
        rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TABLES}
        log, known = rows["chronicle_log"], self._known
        for notification, state in events:
            originator = notification.originator_id
            if notification.topic in CREATIONS:
                event = event_from_state(notification.topic, originator, notification.originator_version, state)
                oid = str(originator)
                if isinstance(event, CampaignStarted):
                    rows["chronicle_campaigns"].append((oid, event.name, event.system, notification.id))
                    known[originator] = (oid, oid)
                else:
                    campaign = str(event.campaign_id)
                    rows["chronicle_characters"].append((oid, campaign, event.name, event.system, event.kind,
                                                         notification.id))
                    known[originator] = (oid, campaign)
                when, by = iso(event.timestamp), event.by
            else:  # only the envelope is needed: the stored JSON, not the whole event model
                when, by = iso_text(state["timestamp"]), state["by"]
            oid, campaign = known.get(originator) or self._lookup(originator)
            log.append((notification.id, event_id(originator, notification.originator_version),
                        campaign, oid, notification.originator_version, notification.topic, when, by))
        return rows

    def write(self, cursor: Any, rows: dict[str, list[tuple[Any, ...]]]) -> None:
        for name, found in rows.items():
            self.store.insert(cursor, name + self._suffix, found)

    def moved(self, position: int) -> None:
        return None

    def forget(self) -> None:
        return None  # which campaign a character is in never changes: the cache stays true

    def _lookup(self, originator_id: UUID) -> tuple[str, str]:
        oid = str(originator_id)
        rows = self.store.query("SELECT campaign_id FROM chronicle_characters WHERE id = ?", (oid,))
        found = self._known[originator_id] = (oid, rows[0][0] if rows else oid)
        return found

    # queries -------------------------------------------------------------------------------

    def campaigns(self) -> list[tuple[str, str, str]]:
        return [tuple(r) for r in self.store.query("SELECT id, name, system FROM chronicle_campaigns ORDER BY position")]

    def characters(self, campaign_id: UUID) -> list[tuple[str, str, str]]:
        rows = self.store.query(
            "SELECT id, name, kind FROM chronicle_characters WHERE campaign_id = ? ORDER BY position", (str(campaign_id),)
        )
        return [tuple(r) for r in rows]

    def log(self, campaign_id: UUID, originator_id: UUID | None = None, since: int = 0, until: int | None = None) -> list[Any]:
        """The campaign's log rows (one aggregate's, when `originator_id`) in positions since..until."""
        sql = "SELECT l.position, l.event_id, l.originator_id, l.version, l.time, l.by_name FROM chronicle_log l"
        if originator_id is None:
            sql += " WHERE l.campaign_id = ?"
            params: list[Any] = [str(campaign_id)]
        else:  # its positions, by the events table's own key (an aggregate is in one campaign only)
            table, at = self.store.events
            sql += f" JOIN {table} e ON e.{at} = l.position WHERE e.originator_id = ?"
            params = [self.store.originator(originator_id)]
        sql += " AND l.position >= ?"
        params.append(since)
        if until is not None:
            sql += " AND l.position <= ?"
            params.append(until)
        return self.store.query(sql + " ORDER BY l.position", params)

    def position_pages(self, campaign_id: UUID, size: int = 20000) -> Iterator[list[int]]:
        """The campaign's log positions, oldest first, a page at a time (streaming: a campaign of
        millions of events is never held whole)."""
        after = 0
        while True:
            page = [row[0] for row in self.store.query(
                "SELECT position FROM chronicle_log WHERE campaign_id = ? AND position > ? ORDER BY position LIMIT ?",
                (str(campaign_id), after, size))]
            if not page:
                return
            yield page
            after = page[-1]

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
        """The aggregate's version at that log position (the events table keys events by aggregate)."""
        table, at = self.store.events
        rows = self.store.query(f"SELECT MAX(originator_version) FROM {table} WHERE originator_id = ? AND {at} <= ?",
                                (self.store.originator(originator_id), position))
        return rows[0][0] if rows else None

    def amendments(self, campaign_id: UUID) -> list[int]:
        """The positions of the campaign's corrections (the topic is written out: so the index on
        them serves the query, on SQLite and on PostgreSQL alike)."""
        rows = self.store.query(f"SELECT position FROM chronicle_log WHERE campaign_id = ? AND topic = '{AMENDED}'"
                                " ORDER BY position", (str(campaign_id),))
        return [row[0] for row in rows]

    def count(self, campaign_id: UUID) -> int:
        return self.store.query("SELECT COUNT(*) FROM chronicle_log WHERE campaign_id = ?", (str(campaign_id),))[0][0]
