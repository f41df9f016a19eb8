"""`chronicle note TEXT [--for NAME]`."""

from __future__ import annotations

import click

from .context import Env
from .options import common
from .output import emit


@click.command()
@click.argument("text")
@click.option("--for", "for_", metavar="NAME", help="The character the note is about (else the campaign).")
@common
@click.pass_obj
def note(env: Env, text: str, for_: str | None) -> None:
    """Record free text in the log, on a character or on the campaign.

    \b
    Example:
      chronicle note "Vasana owes the Grazers a horse" --for Vasana
    """
    result = env.ledger.note(text, for_)
    about = f" about {result['for']}" if result["for"] else ""
    emit(env, result, f"Noted{about}: {text}  [event {result['event']}, version {result['version']}]")
