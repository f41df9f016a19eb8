"""`chronicle dice`: the ledger's commitments to fair dice and how much of the campaign they rolled."""

from __future__ import annotations

from typing import Any

import click

from .context import Env
from .options import common
from .output import emit, table


@click.command()
@common
@click.pass_obj
def dice(env: Env) -> None:
    """List the ledger's commitments to chains of fair dice seeds (where each is in the log, its head,
    how many seeds it holds and how many its rolls revealed) and the fair rolls' share of all the
    campaign's rolls. `verify` checks every fair roll against them (docs/fair-dice.md).

    \b
    Example:
      chronicle dice --json
    """
    from ..ledger.application.views.fair_dice import report

    found = report(env.read())
    emit(env, found, lambda: told(found))


def told(found: dict[str, Any]) -> Any:
    rolls, fair = found["rolls"], found["fair"]
    share = f"{fair} of {rolls} rolls ({100 * fair // rolls}%)" if rolls else "no rolls yet"
    if not found["commitments"]:
        return f"The ledger has committed to no chain of fair dice yet; {share} were its fair dice."
    from rich.console import Group

    rows = [(f"#{c['position']}", c["head"], f"{c['length']:,}", f"{c['used']:,}") for c in found["commitments"]]
    return Group(
        table("Commitments to fair dice", ("position", "head", "seeds", "used"), rows),
        f"{share} were the ledger's fair dice.",
    )
