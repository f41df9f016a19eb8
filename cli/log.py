"""`chronicle log [NAME] [--since REF] [--until REF] [--tail N] [--session N|last]`."""

from __future__ import annotations

import click

from .commanding import asks
from .modelled import Modelled
from .options import common


@click.command(
    cls=Modelled,
    arguments=["name"],
    fields={
        "since": {"metavar": "REF"},
        "until": {"metavar": "REF"},
        "tail": {"metavar": "N", "type": click.IntRange(min=0)},
        "session": {"metavar": "N|last"},
        "data": None,  # (with --json)
    },
)
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
