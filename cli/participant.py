"""`chronicle participant add | invite | list | remove`: who records in the campaign, with which role and key."""

from __future__ import annotations

import click

from .commanding import asks, executes
from .modelled import Modelled
from .options import common


@click.group()
def participant() -> None:
    """The campaign's participants: gms and players, their characters and keys."""


@participant.command(
    "add",
    cls=Modelled,
    arguments=["name"],
    fields={"plays": {"metavar": "CHARACTER"}, "key": {"metavar": "ed25519:BASE64"}},
)
@common
@executes("participants:ParticipantAdd")
def add() -> None:
    """Add NAME to the campaign (a gm only), or change their role, characters or key from this point of
    the log on (a lost phone: the new key signs from here, the old one signed what came before).

    \b
    Example:
      chronicle participant add Ann --role player --plays Vasana --key ed25519:...
    """


@participant.command(
    "invite",
    cls=Modelled,
    arguments=["name"],
    fields={
        "role_": {"default": "player", "show_default": True},
        "plays": {"metavar": "CHARACTER"},
        "url": {"metavar": "URL"},
    },
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


@participant.command("remove", cls=Modelled, arguments=["name"])
@common
@executes("participants:ParticipantRemove")
def remove() -> None:
    """NAME takes no further part (a gm only): their key signs nothing more in this campaign.

    \b
    Example:
      chronicle participant remove Ann --reason "moved away"
    """


@participant.command("list", cls=Modelled)
@common
@asks("participants:ParticipantList")
def list_() -> None:
    """Every participant: role, the characters a player plays, key, and since which log position.

    \b
    Example:
      chronicle participant list --json
    """
