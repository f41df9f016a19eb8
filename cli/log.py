"""`chronicle log [NAME] [--since REF] [--until REF]`."""

from __future__ import annotations

from typing import Any

import click

from .options import common
from .output import emit, table


@click.command()
@click.argument("name", required=False)
@click.option("--since", metavar="REF", help="From this event id, #position or ISO time (inclusive).")
@click.option("--until", metavar="REF", help="Up to this event id, #position or ISO time (inclusive).")
@common
@click.pass_obj
def log(env: Any, name: str | None, since: str | None, until: str | None) -> None:
    """The events, oldest first: id, position, time, author and what each decided.

    \b
    Example:
      chronicle log Vasana --since '#10' --json
    """
    from ..ledger.history import events

    rows = list(events(env.read(), name, since, until))
    emit(env, {"events": rows}, lambda: table(
        None, ("#", "time", "by", "character", "v", "event", "decided"),
        [(r["position"], r["time"][:19], r["by"], r["character"] or "(campaign)", r["version"], r["type"], r["summary"])
         for r in rows]))
