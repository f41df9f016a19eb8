"""`chronicle log [NAME] [--since REF] [--until REF] [--tail N] [--session N|last]`."""

from __future__ import annotations

import click

from ..ledger.application.views.told import told_log
from .context import Env
from .options import common
from .output import emit, stories, width


@click.command()
@click.argument("name", required=False)
@click.option("--since", metavar="REF", help="The events at or after this event id, #position or time.")
@click.option("--until", metavar="REF", help="The events at or before this event id, #position or time.")
@click.option("--tail", type=click.IntRange(min=0), metavar="N", help="Only the newest N (still oldest first).")
@click.option("--session", "sitting", metavar="N|last", help="Only the events of session N (or the last one).")
@common
@click.pass_obj
def log(
    env: Env, name: str | None, since: str | None, until: str | None, tail: int | None, sitting: str | None
) -> None:
    """The events, oldest first: position, local time, author, and what each decided in sentences.

    A time without a zone (2026-12-04T20:30) is local time; the times shown are local, with their offset.

    \b
    Examples:
      chronicle log Vasana --since 2026-12-04T19:00 --json
      chronicle log --session last
      chronicle log --tail 20
    """
    told = None
    if not env.json and env.batch is None and since is None and until is None and sitting is None:
        told = told_log(env.app, env.campaign, name, tail)  # the common case: rows alone, no domain model loaded
    if told is not None:
        campaign, rows = told
    else:
        from ..ledger.application.views.history import events  # lazily: it loads the domain's models

        session = env.read()
        rows = list(events(session, name, since, until, tail, sitting, data=env.json))
        campaign = session.campaign.name
        if env.json:
            for row in rows:
                del row["local_time"]  # --json keeps the contract's ISO times (UTC)
    emit(env, {"events": rows}, lambda: stories(rows, width(), campaign, who=name is None) if rows else "No events.")
