"""`chronicle participant add | invite | list | remove`: who records in the campaign, with which role and key."""

from __future__ import annotations

from typing import Any

import click

from .commanding import executes
from .options import common
from .output import aligned, emit


@click.group()
def participant() -> None:
    """The campaign's participants: gms and players, their characters and keys."""


@participant.command("add")
@click.argument("name")
@click.option(
    "--role",
    type=click.Choice(["gm", "player"]),
    required=True,
    help="gm records anything; a player, for their characters.",
)
@click.option("--plays", multiple=True, metavar="CHARACTER", help="A character the player records for (repeatable).")
@click.option("--key", metavar="ed25519:BASE64", help="Their public key, as their `chronicle identity show` prints it.")
@common
@executes("participants:ParticipantAdd")
def add() -> None:
    """Add NAME to the campaign (a gm only), or change their role, characters or key from this point of
    the log on (a lost phone: the new key signs from here, the old one signed what came before).

    \b
    Example:
      chronicle participant add Ann --role player --plays Vasana --key ed25519:...
    """


@participant.command("invite")
@click.argument("name")
@click.option(
    "--role", type=click.Choice(["gm", "player"]), default="player", show_default=True, help="Their role once joined."
)
@click.option("--plays", multiple=True, metavar="CHARACTER", help="A character the player records for (repeatable).")
@click.option(
    "--url",
    metavar="URL",
    help="The server's address as the table reaches it (default: where `serve --writes` last listened).",
)
@common
@executes("invitations:ParticipantInvite")
def invite() -> None:
    """Invite NAME to record from their own phone or tablet (a gm only): prints a link to `chronicle serve
    --writes` that works once, for 24 hours. The device that opens it makes a key of its own, which becomes
    NAME's from that point of the log on (NAME already a participant: their new key, as after a lost phone).

    \b
    Example:
      chronicle participant invite Ann --plays Vasana
    """


@participant.command("remove")
@click.argument("name")
@click.option("--reason", required=True, help="Why (kept in the log).")
@common
@executes("participants:ParticipantRemove")
def remove() -> None:
    """NAME takes no further part (a gm only): their key signs nothing more in this campaign.

    \b
    Example:
      chronicle participant remove Ann --reason "moved away"
    """


@participant.command("list")
@common
@click.pass_obj
def list_(env: Any) -> None:
    """Every participant: role, the characters a player plays, key, and since which log position.

    \b
    Example:
      chronicle participant list --json
    """
    from ..ledger.application.views.participants import participant_list

    rows = participant_list(env.read())
    emit(
        env,
        {"participants": rows},
        lambda: (
            aligned(
                ("name", "role", "plays", "key", "since"),
                [(r["name"], r["role"], ", ".join(r["plays"]) or "-", r["key"], f"#{r['since']}") for r in rows],
            )
            if rows
            else "No participants yet: this campaign was started before chronicle signed what it records."
        ),
    )
