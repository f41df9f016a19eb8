"""`chronicle identity show`: the public key that signs what this user records."""

from __future__ import annotations

import click

from .context import Env
from .options import common
from .output import emit


@click.group()
def identity() -> None:
    """Your identity: the Ed25519 key pair that signs what you record."""


@identity.command("show")
@common
@click.pass_obj
def show(env: Env) -> None:
    """Print your public key (made on first need, in $CHRONICLE_HOME, else ~/.config/chronicle; the
    private key stays there, readable by you only). A gm adds you to a campaign with it.

    \b
    Example:
      chronicle identity show --json
    """
    from ..ledger.application.keys import load_or_create

    mine = load_or_create()
    emit(
        env,
        {"key": mine.public_key_text, "file": str(mine.path)},
        f"Your public key: {mine.public_key_text}\n(the private key is {mine.path}, readable by you only)",
    )
