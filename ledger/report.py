"""Reports from the log and the read models: a character's timeline, current state, Status over time and
wounds and healing (the changes read model: nothing is folded), the sheet as its system's players read it;
a campaign's overview; a session's recap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..domain.errors import NotFound
from ..projections.changes import Changes
from ..projections.queries import condition_changes, status_series
from .campaigns import session_bounds, sessions
from .characters import character_list, character_view, load
from .history import amendments
from .history import events as log_events

if TYPE_CHECKING:
    from .session import Session


def character_report(session: Session, name: str, data: bool = True) -> dict[str, Any]:
    campaign, app = session.campaign, session.app
    ident = session.character_id(name)
    shown = character_view(session, name, None)
    timeline = list(log_events(session, name, data=data))
    Changes(app.views, app.feed).catch_up()
    told = {e["position"]: e for e in timeline}
    return {
        "campaign": campaign.name,
        "system": campaign.system,
        "character": shown,
        "sheet_lines": shown["sheet_lines"],
        "timeline": timeline,
        "status": [
            {**_mark(told, p), "total": p["total"], "spent": p["spent"]} for p in status_series(app.views, ident)
        ],
        "health": [
            {**_mark(told, c), "before": c["before"], "after": c["after"]} for c in condition_changes(app.views, ident)
        ],
    }


def _mark(told: dict[int, dict[str, Any]], change: dict[str, Any]) -> dict[str, Any]:
    """Where and when a change happened, and what the log says of it."""
    logged = told.get(change["position"], {})
    return {
        "version": change["version"],
        "position": change["position"],
        "time": logged.get("time"),
        "local_time": logged.get("local_time"),
        "type": change["type"],
        "summary": logged.get("summary", ""),
    }


def campaign_report(session: Session) -> dict[str, Any]:
    app, campaign = session.app, session.campaign
    characters = character_list(session, None)
    leaders: list[dict[str, Any]] = []
    oaths: list[dict[str, Any]] = []  # still open
    geasa: list[dict[str, Any]] = []  # still kept
    closed: list[dict[str, Any]] = []
    for row in characters:
        full = character_view(session, row["name"], None)
        if "status" in full:
            leaders.append({"name": row["name"], "status": full["status"]["total"]})
        for kind, found in (("oath", full.get("oaths", [])), ("geas", full.get("geasa", []))):
            for vow in found:
                told = {"character": row["name"], **vow}
                if vow["state"] in ("fulfilled", "broken"):
                    closed.append({**told, "kind": kind})
                else:  # an oath still open, a geas still kept
                    (oaths if kind == "oath" else geasa).append(told)
    leaders.sort(key=lambda r: -r["status"])
    disputed = [{"target": target, **a} for target, found in amendments(app, campaign.id).items() for a in found]
    return {
        "campaign": campaign.name,
        "system": campaign.system,
        "characters": [{"name": r["name"], "summary": r["summary"]} for r in characters],
        "status_leaders": leaders,
        "open_oaths": oaths,
        "open_geasa": geasa,
        "closed_oaths": closed,  # oaths fulfilled or broken, geasa broken: no longer open
        "winters": list(campaign.winters),
        "disputed": disputed,
    }


def session_recap(session: Session, which: str = "last") -> dict[str, Any]:
    """ "Previously on ...": per character, its condition when session WHICH (N or `last`) began and
    ended, and its events of that session in sentences; the campaign's own events (notes, rulings)."""
    start, end = session_bounds(session, which)
    sitting = next(s for s in sessions(session) if s["start"] == start)
    rows = list(log_events(session, sitting=which, data=False))
    told: dict[str, list[dict[str, Any]]] = {}
    campaign_rows = []
    for row in rows:
        if row["character"] is not None:
            told.setdefault(row["character"], []).append(_told(row))
        elif row["type"] not in ("SessionStarted", "SessionEnded"):
            campaign_rows.append(_told(row))
    characters = [
        {
            "name": name,
            "before": _condition_at(session, name, f"#{start}"),
            "after": _condition_at(session, name, None if end is None else f"#{end}"),
            "events": events,
        }
        for name, events in told.items()
    ]
    times = (
        {"start_time": rows[0]["local_time"], "end_time": rows[-1]["local_time"]}
        if rows
        else {"start_time": None, "end_time": None}
    )
    return {
        "campaign": session.campaign.name,
        "session": {**sitting, **times},
        "characters": characters,
        "campaign_events": campaign_rows,
    }


def _told(row: dict[str, Any]) -> dict[str, Any]:
    return {key: row[key] for key in ("id", "position", "time", "local_time", "by", "type", "summary")}


def _condition_at(session: Session, name: str, as_of: str | None) -> str | None:
    """NAME's one-line condition right after REF (now when None); None when it did not exist yet."""
    try:
        character = load(session, name, as_of)
    except NotFound:
        return None
    return str(session.rules.summary(character.sheet, character.condition))
