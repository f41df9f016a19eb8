"""`chronicle campaign new | show | rule`."""

from __future__ import annotations

import click

from .commanding import asks, executes
from .complete import campaign_names
from .modelled import Modelled
from .options import common


@click.group()
def campaign() -> None:
    """Start a campaign, show it, change its rulings."""


@campaign.command("new", cls=Modelled, arguments=["name"])
@common
@executes("table:CampaignNew")
def new() -> None:
    """Start a campaign named NAME under a rule system, with the default rulings.

    \b
    Example:
      chronicle campaign new Glorantha --system pendragon-pass
    """


@campaign.command("show", cls=Modelled)
@common
@asks("campaigns:CampaignShow")
def show() -> None:
    """Name, system, rulings in force (with their meaning) and counts.

    \b
    Example:
      chronicle campaign show --json
    """


@campaign.command("rule", cls=Modelled, arguments=["assignment"], fields={"assignment": {"metavar": "KEY=VALUE"}})
@common
@executes("table:CampaignRule")
def rule() -> None:
    """Change one ruling from this point of the log on.

    \b
    Example:
      chronicle campaign rule disable_margin=8 --reason "house rule from session 12"
    """


@campaign.command("report", cls=Modelled)
@common
@asks("campaigns:CampaignReport")
def report() -> None:
    """Per character a one-line condition; Status leaders, open oaths and geasa, winters, disputed events.

    \b
    Example:
      chronicle campaign report
    """


@campaign.command("list", cls=Modelled, fields={"archived": {"opts": ["--all"]}})
@common
@asks("campaigns:CampaignList")
def list_() -> None:
    """Every campaign in the database: system, characters, events; the current one marked.

    \b
    Example:
      chronicle campaign list --json
    """


@campaign.command("use", cls=Modelled, arguments=["name"], fields={"name": {"shell_complete": campaign_names}})
@common
@executes("table:CampaignUse")
def use() -> None:
    """Make NAME the campaign your later commands act on without --campaign (your own choice, kept in your
    chronicle folder: nothing is recorded in any log).

    \b
    Example:
      chronicle campaign use Sartar
    """


@campaign.command("archive", cls=Modelled, arguments=["name"], fields={"name": {"shell_complete": campaign_names}})
@common
@executes("table:CampaignArchive")
def archive() -> None:
    """Hide NAME from lists (made by mistake or by the demo); its events stay.

    \b
    Example:
      chronicle campaign archive "Demo: Sartar" --reason "only the demo"
    """
