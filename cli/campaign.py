"""`chronicle campaign new | show | rule`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..domain.titles import system_title
from ..ledger.application.views.campaigns import campaign_list
from ..ledger.application.views.report import campaign_report
from ..ledger.trust.digest import digest
from .commanding import executes
from .complete import campaign_names
from .context import Env
from .options import common
from .output import emit, fields, table

if TYPE_CHECKING:
    from ..ledger.application.session import Session

SYSTEMS = ("potestas", "adnd2e", "pendragon-pass")


@click.group()
def campaign() -> None:
    """Start a campaign, show it, change its rulings."""


@campaign.command("new")
@click.argument("name")
@click.option("--system", type=click.Choice(SYSTEMS), required=True, help="The rule system.")
@common
@executes("table:CampaignNew")
def new() -> None:
    """Start a campaign named NAME under a rule system, with the default rulings.

    \b
    Example:
      chronicle campaign new Glorantha --system pendragon-pass
    """


@campaign.command("show")
@common
@click.pass_obj
def show(env: Env) -> None:
    """Name, system, rulings in force (with their meaning) and counts.

    \b
    Example:
      chronicle campaign show --json
    """
    data, human = shown(env.read())
    emit(env, data, human)


def shown(session: Session) -> tuple[dict[str, Any], Callable[[], Any]]:
    """`campaign show` of the session's campaign: its JSON document, and its tables for people."""
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

    def human() -> Any:
        from rich.console import Group

        described = type(rulings).model_fields
        rows = [(key, value, described[key].description or "") for key, value in data["rulings"].items()]
        summary = fields(
            f"{current.name} ({system_title(current.system)})",
            {"characters": len(characters), "events": data["counts"]["events"], "digest": data["digest"]},
        )
        return Group(summary, table("Rulings in force", ("key", "value", "meaning"), rows))

    return data, human


@campaign.command("rule")
@click.argument("assignment", metavar="KEY=VALUE")
@click.option("--reason", required=True, help="Why the table changed the ruling (kept in the log).")
@common
@executes("table:CampaignRule")
def rule() -> None:
    """Change one ruling from this point of the log on.

    \b
    Example:
      chronicle campaign rule disable_margin=8 --reason "house rule from session 12"
    """


@campaign.command("report")
@common
@click.pass_obj
def report(env: Env) -> None:
    """Per character a one-line condition; Status leaders, open oaths and geasa, winters, disputed events.

    \b
    Example:
      chronicle campaign report
    """
    data = campaign_report(env.read())

    def human() -> Any:
        from rich.console import Group

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
        return Group(*parts)

    emit(env, data, human)


@campaign.command("list")
@click.option("--all", "archived", is_flag=True, help="Archived campaigns too.")
@common
@click.pass_obj
def list_(env: Env, archived: bool) -> None:
    """Every campaign in the database: system, characters, events; the current one marked.

    \b
    Example:
      chronicle campaign list --json
    """
    rows = campaign_list(env.read(), archived)
    emit(
        env,
        {"campaigns": rows},
        lambda: table(
            None,
            ("", "campaign", "system", "characters", "events"),
            [
                (
                    "*" if r["current"] else "",
                    r["name"] + (" (archived)" if r["archived"] else ""),
                    r["system"],
                    r["characters"],
                    r["events"],
                )
                for r in rows
            ],
        ),
    )


@campaign.command("use")
@click.argument("name", shell_complete=campaign_names)  # a campaign's name, not a character's
@common
@executes("table:CampaignUse")
def use() -> None:
    """Make NAME the campaign later commands act on without --campaign.

    \b
    Example:
      chronicle campaign use Sartar
    """


@campaign.command("archive")
@click.argument("name", shell_complete=campaign_names)  # a campaign's name, not a character's
@click.option("--reason", required=True, help="Why (kept in the log).")
@common
@executes("table:CampaignArchive")
def archive() -> None:
    """Hide NAME from lists (made by mistake or by the demo); its events stay.

    \b
    Example:
      chronicle campaign archive "Demo: Sartar" --reason "only the demo"
    """
