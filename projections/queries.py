"""What the table view and the report read, as queries over the read models' tables: a character's row,
its newest events with the sentences they were told with, its Status series and condition changes (the
changes model), a page of the log, a campaign's sessions. Each is one or two statements whatever the
length of the history; none folds an event.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Collection
from typing import Any, NamedTuple
from uuid import UUID

import orjson

from .store import ViewStore, aggregate_id

CAMPAIGN = "(SELECT position FROM chronicle_campaigns WHERE id = ?)"  # a campaign's position from its id
SESSION_EVENTS = ("SessionStarted", "SessionEnded")


class CharacterRow(NamedTuple):
    """A character's read-model row with its campaign's name and system."""

    id: UUID
    campaign_id: UUID
    name: str
    version: int
    view: dict[str, Any]
    campaign: str
    system: str


class Entry(NamedTuple):
    """An event of the log as rows hold it: where, when (the index's UTC time), whose, which kind, and
    the sentences `log` told it with (None where no row kept them: the caller explains the event)."""

    position: int
    time: str
    originator_id: UUID
    version: int
    kind: str
    told_name: str | None
    by: str | None
    told: str | None


def character_row(store: ViewStore, ident: UUID) -> CharacterRow | None:
    found = store.query(
        "SELECT c.campaign_id, c.name, c.version, c.view, k.name AS campaign, k.system"
        " FROM chronicle_character_rows c JOIN chronicle_campaigns k ON k.id = c.campaign_id WHERE c.id = ?",
        (str(ident),),
    )
    if not found:
        return None
    campaign_id, name, version, view, campaign, system = found[0]
    return CharacterRow(ident, UUID(campaign_id), name, version, orjson.loads(view), campaign, system)


def names(store: ViewStore) -> list[tuple[str, str, str | None, str | None]]:
    """Each campaign's id and name with each of its characters' id and name (None, None for none), in
    one statement: what a readable address (`/c/<campaign>/<character>`) is matched against."""
    rows = store.query(
        "SELECT k.id AS campaign_id, k.name AS campaign, c.id AS character_id, c.name AS character"
        " FROM chronicle_campaigns k"
        " LEFT JOIN chronicle_characters c ON c.campaign_id = k.id ORDER BY k.position, c.position"
    )
    return [(str(k), kname, None if c is None else str(c), cname) for k, kname, c, cname in rows]


def character_names(store: ViewStore, idents: Collection[UUID]) -> dict[UUID, tuple[str, str]]:
    """The name and campaign's id of each character of IDENTS, by its id (the others are not characters)."""
    rows = _of(store, "SELECT id, name, campaign_id FROM chronicle_characters", idents)
    return {UUID(ident): (name, campaign) for ident, name, campaign in rows}


def campaign_names(store: ViewStore, idents: Collection[UUID]) -> dict[UUID, str]:
    """The name of each campaign of IDENTS, by its id."""
    return {UUID(ident): name for ident, name in _of(store, "SELECT id, name FROM chronicle_campaigns", idents)}


def _of(store: ViewStore, select: str, idents: Collection[UUID], page: int = 500) -> list[Any]:
    """The rows of SELECT whose `id` is one of IDENTS, read by the table's index on ids, PAGE ids a statement."""
    wanted = sorted(str(ident) for ident in idents)
    rows: list[Any] = []
    for start in range(0, len(wanted), page):
        some = wanted[start : start + page]
        rows += store.query(f"{select} WHERE id IN ({', '.join('?' * len(some))})", some)
    return rows


def event_count(store: ViewStore, ident: UUID, until: int) -> int:
    """How many events an aggregate has at or before log position `until`."""
    table, at = store.events
    rows = store.query(
        f"SELECT COUNT(*) FROM {table} WHERE originator_id = ? AND {at} <= ?", (store.originator(ident), until)
    )
    return int(rows[0][0])


def newest_entries(
    store: ViewStore,
    ident: UUID,
    count: int,
    until: int | None = None,
    named: tuple[UUID, str] | None = None,
) -> list[Entry]:
    """An aggregate's newest `count` events (at or before `until`), newest first, read by the events
    table's own key: the rest of a long history is not read. With `named` (its campaign and name), the
    events recorded on others that name it are among them (the index's parts)."""
    table, at = store.events
    newest = f"SELECT {at} FROM {table} WHERE originator_id = ?"
    params: list[Any] = [store.originator(ident)]
    if until is not None:
        newest += f" AND {at} <= ?"
        params.append(until)
    newest += f" ORDER BY originator_version DESC LIMIT {int(count)}"
    if named is None:
        return _entries(store, f"l.position IN ({newest})", params, None)
    theirs = f"SELECT position FROM chronicle_parts WHERE campaign = {CAMPAIGN} AND name = ?"
    params += [str(named[0]), named[1].casefold()]
    if until is not None:
        theirs += " AND position <= ?"
        params.append(until)
    theirs += f" ORDER BY position DESC LIMIT {int(count)}"
    return _entries(store, f"l.position IN ({newest}) OR l.position IN ({theirs})", params, count)


def log_entries(
    store: ViewStore,
    campaign_id: UUID,
    character: UUID | None = None,
    kind: str | None = None,
    low: int = 0,
    high: int | None = None,
    count: int = 100,
    named: str | None = None,
) -> list[Entry]:
    """The campaign's newest `count` events from `low` to `high` (of one character, of one kind), newest first.
    With `named` (the character's name), a character's events are also those recorded on others that name it."""
    where, params = f"l.campaign = {CAMPAIGN} AND l.position >= ?", [str(campaign_id), low]
    if character is not None and named:
        parts = f"SELECT position FROM chronicle_parts WHERE campaign = {CAMPAIGN} AND name = ?"
        where += f" AND (e.originator_id = ? OR l.position IN ({parts}))"
        params += [store.originator(character), str(campaign_id), named.casefold()]
    elif character is not None:
        where += " AND e.originator_id = ?"
        params.append(store.originator(character))
    if kind:
        where += " AND e.topic LIKE ?"
        params.append(f"%:{kind}")
    if high is not None:
        where += " AND l.position <= ?"
        params.append(high)
    return _entries(store, where, params, count)


def _entries(store: ViewStore, where: str, params: list[Any], count: int | None) -> list[Entry]:
    table, at = store.events
    rows = store.query(
        f"SELECT l.position, l.time, e.originator_id, e.originator_version, e.topic, t.name, t.by, t.told"
        f" FROM chronicle_log l JOIN {table} e ON e.{at} = l.position"
        f" LEFT JOIN chronicle_told t ON t.position = l.position WHERE {where}"
        f" ORDER BY l.position DESC" + (f" LIMIT {int(count)}" if count is not None else ""),
        params,
    )
    return [
        Entry(position, time, aggregate_id(oid), version, topic.rpartition(":")[2], name, by, told)
        for position, time, oid, version, topic, name, by, told in rows
    ]


def session_events(store: ViewStore, campaign_id: UUID) -> list[tuple[int, int, str]]:
    """The position, version and kind of each of the campaign's session starts and ends, oldest first."""
    table, at = store.events
    rows = store.query(
        f"SELECT {at}, originator_version, topic FROM {table} WHERE originator_id = ?"
        f" AND (topic LIKE ? OR topic LIKE ?) ORDER BY originator_version",
        (store.originator(campaign_id), *(f"%:{kind}" for kind in SESSION_EVENTS)),
    )
    return [(position, version, topic.rpartition(":")[2]) for position, version, topic in rows]


def status_series(
    store: ViewStore, ident: UUID, until: int | None = None, most: int | None = None, campaign_id: UUID | None = None
) -> list[dict]:
    """The character's Status after each event that changed it (or the increases spent), oldest first, at
    or before `until`: `{"position", "version", "type", "total", "spent", "time", "session"}` (`spent`: an
    increase was spent; `time`: the index's UTC time, None while the index is behind; `session`: the number
    of the campaign's session the change was recorded in, None outside any). With `most`, at most that many
    points: the last of every k consecutive changes, marked `spent` if any of them spent an increase. A few
    statements whatever the length of the series: its rows, and the campaign's session starts and ends
    (of `campaign_id`, looked up when not given)."""
    bound, params = ("", [str(ident)]) if until is None else (" AND {c}position <= ?", [str(ident), until])
    where = "{c}character_id = ? AND {c}point IS NOT NULL" + bound  # `{c}`: the table's alias, if any
    if most is None:
        rows = store.query(
            "SELECT c.position, c.version, c.kind, c.status, c.increase, l.time FROM chronicle_changes c"
            f" LEFT JOIN chronicle_log l ON l.position = c.position WHERE {where.format(c='c.')} ORDER BY c.point",
            params,
        )
    else:
        where = where.format(c="")
        last = store.query(f"SELECT MAX(point) FROM chronicle_changes WHERE {where}", params)[0][0] or 0
        step = max(1, math.ceil(last / max(most, 1)))
        rows = store.query(
            "SELECT c.position, c.version, c.kind, c.status, b.increase, l.time FROM chronicle_changes c JOIN"
            f" (SELECT MAX(point) AS point, MAX(increase) AS increase FROM chronicle_changes WHERE {where}"
            "  GROUP BY (point - 1) / ?) b ON c.point = b.point LEFT JOIN chronicle_log l ON l.position = c.position"
            " WHERE c.character_id = ? ORDER BY c.point",
            [*params, step, str(ident)],
        )
    if not rows:
        return []
    if campaign_id is None:
        found = store.query("SELECT campaign_id FROM chronicle_characters WHERE id = ?", (str(ident),))
        campaign_id = UUID(found[0][0]) if found else None
    sessions = Sessions(session_spans(store, campaign_id) if campaign_id is not None else [])
    return [
        {
            "position": position,
            "version": version,
            "type": kind,
            "total": total,
            "spent": bool(increase),
            "time": time,
            "session": sessions.at(position),
        }
        for position, version, kind, total, increase, time in rows
    ]


def session_spans(store: ViewStore, campaign_id: UUID) -> list[tuple[int, int, int | None]]:
    """Each of the campaign's sessions as `(number, start, end)`, log positions (end None while it runs),
    oldest first: a session's number is its place among the campaign's session starts (`start_session`)."""
    spans: list[tuple[int, int, int | None]] = []
    for at, _, kind in session_events(store, campaign_id):
        if kind == "SessionStarted":
            spans.append((len(spans) + 1, at, None))
        elif spans and spans[-1][2] is None:
            spans[-1] = (*spans[-1][:2], at)
    return spans


class Sessions:
    """Which session a log position falls in, of spans (`session_spans`) sorted by start."""

    def __init__(self, spans: list[tuple[int, int, int | None]]):
        self.spans, self.starts = spans, [start for _, start, _ in spans]

    def at(self, position: int) -> int | None:
        """The number of the session `position` was recorded in, None outside every one."""
        found = bisect.bisect_right(self.starts, position) - 1
        if found < 0:
            return None
        number, _, end = self.spans[found]
        return number if end is None or position <= end else None


def condition_changes(store: ViewStore, ident: UUID, until: int | None = None) -> list[dict]:
    """Each event that changed the character's condition, oldest first: `{"position", "version", "type",
    "before", "after"}` (the one-line summaries)."""
    bound, params = ("", [str(ident)]) if until is None else (" AND position <= ?", [str(ident), until])
    rows = store.query(
        "SELECT position, version, kind, before, after FROM chronicle_changes"
        f" WHERE character_id = ? AND after IS NOT NULL{bound} ORDER BY position",
        params,
    )
    return [
        {"position": position, "version": version, "type": kind, "before": before, "after": after}
        for position, version, kind, before, after in rows
    ]
