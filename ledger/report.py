"""A character's chronicle read from the log: timeline, current state, Status over time."""

from __future__ import annotations

from typing import Any

from ..domain.character import character_id
from .characters import view
from .history import events as log_events


def character_report(session: Any, name: str) -> dict[str, Any]:
    app, campaign, rules = session.app, session.campaign, session.rules
    character = session.character(name)
    timeline = list(log_events(session, name))
    series = status_series(app, rules, character_id(campaign.id, name), timeline)
    return {"campaign": campaign.name, "system": campaign.system, "character": view(session, character),
            "timeline": timeline, "status": series}


def status_series(app: Any, rules: Any, ident: Any, timeline: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Status total after every event that changed it (PenDragon Pass), with increases spent."""
    events = list(app.events.get(ident))
    if not events:
        return []
    character = events[0].mutate(None)
    when = {e["version"]: e for e in timeline}
    series, last, spent = [], 0, 0
    for event in events[1:]:
        event.mutate(character)
        status = rules.view(character.sheet, character.condition).get("status")
        if status is None:
            return []
        if status["total"] != last or status["increases_spent"] != spent:
            logged = when.get(event.originator_version, {})
            series.append({"version": event.originator_version, "position": logged.get("position"),
                           "time": logged.get("time"), "total": status["total"],
                           "spent": status["increases_spent"] > spent, "type": type(event).__name__})
            last, spent = status["total"], status["increases_spent"]
    return series


def campaign_report(session: Any) -> dict[str, Any]:
    from .characters import character_list
    from .history import amendments

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
    return {"campaign": campaign.name, "system": campaign.system,
            "characters": [{"name": r["name"], "summary": r["summary"]} for r in characters],
            "status_leaders": leaders, "open_oaths": oaths, "open_geasa": geasa,
            "winters": list(campaign.winters), "disputed": disputed}
