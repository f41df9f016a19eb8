"""A character's chronicle read from the log: timeline, current state, Status over time; the sheet as
its system's players read it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..domain.errors import NotFound
from .campaigns import session_bounds, sessions
from .characters import character_list, load, view
from .history import amendments
from .history import events as log_events

if TYPE_CHECKING:
    from ..domain.events import Event
    from ..domain.systems import RuleSystem
    from .session import Session


def character_report(session: Session, name: str, data: bool = True) -> dict[str, Any]:
    campaign, rules = session.campaign, session.rules
    character = session.character(name)
    folded: list[Event] = []
    timeline = list(log_events(session, name, data=data, keep=folded))
    series, health = _series(rules, folded, timeline)
    return {
        "campaign": campaign.name,
        "system": campaign.system,
        "character": view(session, character),
        "sheet_lines": rules.sheet_lines(character.sheet, character.condition),
        "timeline": timeline,
        "status": series,
        "health": health,
    }


def _series(
    rules: RuleSystem, events: list[Event], timeline: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One fold of the character's events (its whole stream, registration first): its Status after every
    event that changed it (PenDragon Pass), with increases spent; and its condition after every event
    that changed it (wounds, healing)."""
    if not events:
        return [], []
    character = events[0].mutate(None)
    when = {e["version"]: e for e in timeline}
    series: list[dict[str, Any]] = []
    health: list[dict[str, Any]] = []
    last, spent, condition = 0, 0, rules.view(character.sheet, character.condition)
    before = rules.summary(character.sheet, character.condition)
    for event in events[1:]:
        event.mutate(character)
        logged = when.get(event.originator_version, {})
        mark = {
            "version": event.originator_version,
            "position": logged.get("position"),
            "time": logged.get("time"),
            "local_time": logged.get("local_time"),
            "type": type(event).__name__,
            "summary": logged.get("summary", ""),
        }
        now = rules.view(character.sheet, character.condition)
        if now["condition"] != condition["condition"]:  # wounded, healed, knocked out, woken, dead
            after = rules.summary(character.sheet, character.condition)
            health.append({**mark, "before": before, "after": after})
            before = after
        condition, status = now, now.get("status")
        if status is not None and (status["total"] != last or status["increases_spent"] != spent):
            series.append({**mark, "total": status["total"], "spent": status["increases_spent"] > spent})
            last, spent = status["total"], status["increases_spent"]
    return series, health


def campaign_report(session: Session) -> dict[str, Any]:
    app, campaign = session.app, session.campaign
    characters = character_list(session, None)
    leaders, oaths, geasa = [], [], []
    for row in characters:
        full = view(session, session.character(row["name"]))
        if "status" in full:
            leaders.append({"name": row["name"], "status": full["status"]["total"]})
        oaths += [{"character": row["name"], **oath} for oath in full.get("oaths", [])]
        geasa += [{"character": row["name"], **geas} for geas in full.get("geasa", [])]
    leaders.sort(key=lambda r: -r["status"])
    disputed = [{"target": target, **a} for target, found in amendments(app, campaign.id).items() for a in found]
    return {
        "campaign": campaign.name,
        "system": campaign.system,
        "characters": [{"name": r["name"], "summary": r["summary"]} for r in characters],
        "status_leaders": leaders,
        "open_oaths": oaths,
        "open_geasa": geasa,
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
