"""`chronicle key new`: a key for encrypting the ledger at rest (`CHRONICLE_CIPHER_KEY`)."""

from __future__ import annotations

import click

from .context import Env
from .options import common
from .output import emit


@click.group()
def key() -> None:
    """Keys for encrypting stored events (AES-256-GCM)."""


@key.command("new")
@common
@click.pass_obj
def new(env: Env) -> None:
    """Print a new random 256-bit key. Keep it secret and safe: without it an encrypted ledger
    cannot be read. Set it as CHRONICLE_CIPHER_KEY for every command on that ledger.

    \b
    Example:
      export CHRONICLE_CIPHER_KEY=$(chronicle key new)
    """
    from eventsourcing.cryptography import AESCipher

    secret = AESCipher.create_key(num_bytes=32)
    emit(env, {"key": secret}, secret)
