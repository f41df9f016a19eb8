"""`chronicle session start | end | list`: the nights at the table."""

from __future__ import annotations

import click

from ..ledger.campaigns import sessions
from .context import Env
from .options import common
from .output import emit, table


@click.group()
def session() -> None:
    """Sessions at the table: the events between a start and its end."""


@session.command("start")
@click.argument("title", required=False, default="")
@common
@click.pass_obj
def start(env: Env, title: str) -> None:
    """Begin the next session (one event on the campaign).

    \b
    Example:
      chronicle session start "The Sun Dome's fall"
    """
    result = env.ledger.start_session(title)
    named = f": {title}" if title else ""
    emit(env, result, f"Session {result['number']} begins{named}.  [event {result['event']}]")


@session.command("end")
@common
@click.pass_obj
def end(env: Env) -> None:
    """End the running session; prints the ledger's digest to note (`verify --digest` holds the log to it).

    \b
    Example:
      chronicle session end
    """
    result = env.ledger.end_session()
    emit(
        env,
        result,
        f"Session {result['number']} ends.  Digest {result['digest']} (note it: "
        f"`chronicle verify --digest {result['digest']}` proves the log still holds tonight).  "
        f"[event {result['event']}]",
    )


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
