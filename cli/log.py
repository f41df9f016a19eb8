"""`chronicle log [NAME] [--since REF] [--until REF] [--tail N] [--session N|last]`."""

from __future__ import annotations

import click

from .commanding import asks
from .options import common


@click.command()
@click.argument("name", required=False)
@click.option("--since", metavar="REF", help="The events at or after this event id, #position or time.")
@click.option("--until", metavar="REF", help="The events at or before this event id, #position or time.")
@click.option("--tail", type=click.IntRange(min=0), metavar="N", help="Only the newest N (still oldest first).")
@click.option("--session", metavar="N|last", help="Only the events of session N (or the last one).")
@common
@asks("log:Log", lambda env: {"data": env.json})  # people read sentences: each event's fields only with --json
def log() -> None:
    """The events, oldest first: position, local time, author, and what each decided in sentences.

    A time without a zone (2026-12-04T20:30) is local time; the times shown are local, with their offset.

    \b
    Examples:
      chronicle log Vasana --since 2026-12-04T19:00 --json
      chronicle log --session last
      chronicle log --tail 20
    """
