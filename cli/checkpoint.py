"""`chronicle checkpoint`: the campaign's log as it is now, as a signed note (a C2SP checkpoint)."""

from __future__ import annotations

import click

from .context import Env
from .options import common
from .output import Exact, emit


@click.command()
@common
@click.pass_obj
def checkpoint(env: Env) -> None:
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
    from ..ledger.trust.identity import load_or_create
    from ..ledger.trust.witness import b64
    from ..ledger.trust.witness import checkpoint as sign

    signer = load_or_create()
    campaign = env.read().campaign
    made = sign(env.app, campaign.id, signer, where=env.db)
    data = {
        "campaign": str(campaign.id),
        "name": campaign.name,
        "size": made.size,
        "root": b64(made.root),
        "key": made.key,
        "note": made.note,
    }
    emit(env, data, Exact(made.note.removesuffix("\n")))  # printed as it is signed: `checkpoint > FILE` is the note
