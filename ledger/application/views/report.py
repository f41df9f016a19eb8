"""Reports from the log and the read models: a character's timeline, current state, Status over time and
wounds and healing (the changes read model: nothing is folded), the sheet as its system's players read it;
a campaign's overview. A session's recap is views/recap.py's (`session_recap` is kept importable here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....projections.queries import condition_changes, status_series
from .characters import character_list, character_view
from .history import amendments
from .history import events as log_events
from .recap import session_recap

__all__ = ["campaign_report", "character_report", "session_recap"]

if TYPE_CHECKING:
    from ..session import Session


def character_report(session: Session, name: str, data: bool = True) -> dict[str, Any]:
    campaign, app = session.campaign, session.app
    ident = session.character_id(name)
    shown = character_view(session, name, None)
    timeline = list(log_events(session, name, data=data))
    app.changes.catch_up()
    told = {e["position"]: e for e in timeline}
    return {
        "campaign": campaign.name,
        "system": campaign.system,
        "character": shown,
        "sheet_lines": shown["sheet_lines"],
        "timeline": timeline,
        "status": [
            {**_mark(told, p), "session": p["session"], "total": p["total"], "spent": p["spent"]}
            for p in status_series(app.views, ident, campaign_id=campaign.id)
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
    characters = [r for r in characters if not r.get("npc")] + [r for r in characters if r.get("npc")]
    for row in characters:
        full = character_view(session, row["name"], None)
        if "status" in full and not row.get("npc"):  # the party's leaders
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
        "characters": [{"name": r["name"], "summary": r["summary"], "npc": bool(r.get("npc"))} for r in characters],
        "status_leaders": leaders,
        "open_oaths": oaths,
        "open_geasa": geasa,
        "closed_oaths": closed,  # oaths fulfilled or broken, geasa broken: no longer open
        "winters": list(campaign.winters),
        "disputed": disputed,
    }
