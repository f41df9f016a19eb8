"""`chronicle session start | end | list`: the nights at the table."""

from __future__ import annotations

import click

from ..ledger.application.views.campaigns import sessions
from .commanding import executes
from .context import Env
from .options import common
from .output import emit, table


@click.group()
def session() -> None:
    """Sessions at the table: the events between a start and its end."""


@session.command("start")
@click.argument("title", required=False, default="")
@common
@executes("table:SessionStart")
def start() -> None:
    """Begin the next session (one event on the campaign).

    \b
    Example:
      chronicle session start "The Sun Dome's fall"
    """


@session.command("end")
@common
@executes("table:SessionEnd")
def end() -> None:
    """End the running session; prints the ledger's digest to note (`verify --digest` holds the log to it).

    \b
    Example:
      chronicle session end
    """


@session.command("list")
@common
@click.pass_obj
def list_(env: Env) -> None:
    """Every session: number, title, first and last log position, events.

    \b
    Example:
      chronicle session list --json
    """
    rows = sessions(env.read())
    emit(
        env,
        {"sessions": rows},
        lambda: table(
            None,
            ("session", "title", "from", "to", "events"),
            [
                (
                    r["number"],
                    r["title"],
                    f"#{r['start']}",
                    "running" if r["end"] is None else f"#{r['end']}",
                    r["events"],
                )
                for r in rows
            ],
        ),
    )
