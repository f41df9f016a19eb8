"""`chronicle recap [--session N|last]`: "previously on ..." for the table (the application layer's
`recap` query tells it)."""

from __future__ import annotations

import click

from .commanding import asks
from .modelled import Modelled
from .options import common


@click.command(cls=Modelled, fields={"session": {"default": "last", "show_default": True, "metavar": "N|last"}})
@common
@asks("recap:Recap")
def recap() -> None:
    """Previously on the campaign: per character, what changed in a session, in sentences.

    \b
    Example:
      chronicle recap --session 3
    """
