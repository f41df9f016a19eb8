"""`chronicle note TEXT [--for NAME]`."""

from __future__ import annotations

import click

from ..ledger.application.commands.table import Note
from .commanding import executes
from .modelled import Modelled
from .options import common


@click.command(cls=Modelled, arguments=["text"], fields={"for_": {"metavar": "NAME"}})
@common
@executes(Note)
def note() -> None:
    """Record free text in the log, on a character or on the campaign.

    \b
    Example:
      chronicle note "Vasana owes the Grazers a horse" --for Vasana
    """
