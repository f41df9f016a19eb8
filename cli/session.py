"""`chronicle session start | end | list`: the nights at the table."""

from __future__ import annotations

import click

from .commanding import asks, executes
from .modelled import Modelled
from .options import common


@click.group()
def session() -> None:
    """Sessions at the table: the events between a start and its end."""


@session.command("start", cls=Modelled, arguments=["title"])
@common
@executes("table:SessionStart")
def start() -> None:
    """Begin the next session (one event on the campaign).

    \b
    Example:
      chronicle session start "The Sun Dome's fall"
    """


@session.command("end", cls=Modelled)
@common
@executes("table:SessionEnd")
def end() -> None:
    """End the running session; prints the ledger's digest to note (`verify --digest` holds the log to it).

    \b
    Example:
      chronicle session end
    """


@session.command("list", cls=Modelled)
@common
@asks("campaigns:SessionList")
def list_() -> None:
    """Every session: number, title, first and last log position, events.

    \b
    Example:
      chronicle session list --json
    """
