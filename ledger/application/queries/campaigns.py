"""The campaigns a ledger holds: `campaign show`, `campaign list`, `campaign report`, `session list`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ....domain.registry import system_title
from ..reply import Reply
from ..text import fields, group, rendered, table
from .base import Query, answers, field

if TYPE_CHECKING:
    from ..ledger import Ledger


@dataclass(frozen=True, kw_only=True)
class CampaignShow(Query):
    """The campaign: its name, system, rulings in force (with their meaning) and counts."""

    query: ClassVar[str] = "campaign show"


@dataclass(frozen=True, kw_only=True)
class CurrentCampaign(Query):
    """The campaign commands act on (the one `--campaign` names, else the current one): its id, name and
    system, from its row when the read models are caught up (a campaign's system never changes)."""

    query: ClassVar[str] = "current campaign"


@dataclass(frozen=True, kw_only=True)
class CampaignList(Query):
    """Every campaign in the database: system, characters, events; the current one marked."""

    query: ClassVar[str] = "campaign list"
    archived: bool = field("Archived campaigns too.", False)


@dataclass(frozen=True, kw_only=True)
class CampaignReport(Query):
    """Per character a one-line condition; Status leaders, open oaths and geasa, winters, disputed events."""

    query: ClassVar[str] = "campaign report"


@dataclass(frozen=True, kw_only=True)
class SessionList(Query):
    """Every session of play: number, title, first and last log position, events."""

    query: ClassVar[str] = "session list"


@answers(CurrentCampaign)
def current(ledger: Ledger, asked: CurrentCampaign) -> Reply:
    from ..views.rows import campaign_row

    row = campaign_row(ledger.app, ledger.campaign) if ledger.batch is None and not ledger.holding else None
    if row is None:  # (a batch's own campaign, or one its unit of work has loaded already)
        campaign = ledger.read().campaign
        row = str(campaign.id), campaign.name, campaign.system
    ident, name, system = row
    return Reply.of({"id": ident, "name": name, "system": system}, f"{name} ({system_title(system)})")


@answers(CampaignShow)
def show(ledger: Ledger, asked: CampaignShow) -> Reply:
    from ...trust.digest import digest

    session = ledger.read()
    current = session.campaign
    rulings = session.rulings()
    app = session.app
    app.index.catch_up()
    characters = app.index.characters(current.id)
    data = {
        "id": str(current.id),  # what a participant's signature names (never another campaign of the same name)
        "name": current.name,
        "system": current.system,
        "version": current.version,
        "rulings": rulings.model_dump(mode="json"),
        "counts": {"characters": len(characters), "events": app.index.count(current.id)},
        "winters": list(current.winters),
        "digest": digest(app, current.id),  # note it: `verify --digest` proves the log still extends it
    }

    def text() -> str:
        described = type(rulings).model_fields
        rows = [(key, value, described[key].description or "") for key, value in data["rulings"].items()]
        summary = fields(
            f"{current.name} ({system_title(current.system)})",
            {"characters": len(characters), "events": data["counts"]["events"], "digest": data["digest"]},
        )
        return rendered(
            group(summary, table("Rulings in force", ("key", "value", "meaning"), rows)), ledger.presentation
        )

    return Reply(lambda: data, text)


@answers(CampaignList)
def listed(ledger: Ledger, asked: CampaignList) -> Reply:
    from ..views.campaigns import campaign_list

    rows = campaign_list(ledger.read(), asked.archived)

    def text() -> str:
        lines = [
            (
                "*" if r["current"] else "",
                r["name"] + (" (archived)" if r["archived"] else ""),
                r["system"],
                r["characters"],
                r["events"],
            )
            for r in rows
        ]
        return rendered(table(None, ("", "campaign", "system", "characters", "events"), lines), ledger.presentation)

    return Reply(lambda: {"campaigns": rows}, text)


@answers(CampaignReport)
def report(ledger: Ledger, asked: CampaignReport) -> Reply:
    from ..views.report import campaign_report

    data = campaign_report(ledger.read())
    return Reply(lambda: data, lambda: rendered(report_parts(data), ledger.presentation))


def report_parts(data: dict[str, Any]) -> Any:
    parts = [
        f"[bold]{data['campaign']}[/bold] ({system_title(data['system'])})",
        table("Characters", ("name", "condition"), [(c["name"], c["summary"]) for c in data["characters"]]),
    ]
    if data["status_leaders"]:
        leaders = [(r["name"], f"{r['status']:,}") for r in data["status_leaders"]]
        parts.append(table("Status leaders", ("name", "Status"), leaders))
    if data["open_oaths"] or data["open_geasa"]:
        rows = [(o["character"], "oath", o.get("text", "")) for o in data["open_oaths"]]
        rows += [(g["character"], "geas", g.get("text", "")) for g in data["open_geasa"]]
        parts.append(table("Open oaths and geasa", ("character", "kind", "text"), rows))
    if data["winters"]:
        parts.append(f"Winters recorded: {', '.join(str(w) for w in data['winters'])}")
    if data["disputed"]:
        parts.append(
            table(
                "Disputed (amended) events",
                ("#", "by", "correction"),
                [(f"#{d['position']}", d["by"], d["summary"]) for d in data["disputed"]],
            )
        )
    return group(*parts)


@answers(SessionList)
def sessions(ledger: Ledger, asked: SessionList) -> Reply:
    from ..views.campaigns import sessions as listed

    rows = listed(ledger.read())

    def text() -> str:
        lines = [
            (r["number"], r["title"], f"#{r['start']}", "running" if r["end"] is None else f"#{r['end']}", r["events"])
            for r in rows
        ]
        return rendered(table(None, ("session", "title", "from", "to", "events"), lines), ledger.presentation)

    return Reply(lambda: {"sessions": rows}, text)
