"""`chronicle checkpoint`: the campaign's log as it is now, as a signed note (a C2SP checkpoint)."""

from __future__ import annotations

import click

from .commanding import asks
from .modelled import Modelled
from .options import common


@click.command(cls=Modelled)
@common
@asks("verify:Checkpoint")
def checkpoint() -> None:
    """Sign the campaign's log as it is now: a note (a C2SP checkpoint) of its number of events and
    their RFC 6962 Merkle root, signed by your identity. Keep it outside the database (send it to
    the players): `verify --witness NOTE` proves the log still extends it, or names the first event
    whose history changed. Refused (exit 1) when the log no longer extends the last checkpoint this
    chronicle saw of the campaign.

    \b
    Example:
      chronicle checkpoint > session-12.note
      chronicle verify --witness session-12.note
    """
