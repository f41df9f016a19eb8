"""`chronicle oath swear | fulfil | break` and `chronicle geas take | break` (docs/rulings.md, PenDragon Pass, Status:
oaths and geasa)."""

from __future__ import annotations

import click

from ...ledger.application.commands.pendragon_oaths import GeasBreak, GeasTake, OathBreak, OathFulfil, OathSwear
from ..commanding import executes
from ..options import common
from .pendragon_common import HELP


@click.group(context_settings=HELP)
def oath() -> None:
    """Oaths: swear, fulfil (Status as the table sets) or break (Honor -1, or d6 when grave)."""


@oath.command("swear", context_settings=HELP)
@click.argument("name")
@click.argument("text")
@click.option("--id", "oath_id", metavar="ID", help="A short id for the oath (default oath-N).")
@common
@executes(OathSwear)
def swear() -> None:
    """NAME swears the oath TEXT; later commands name it by its id or its text.

    \b
    Example:
      chronicle oath swear Vasana "avenge my father"
    """


@oath.command("fulfil", context_settings=HELP)
@click.argument("name")
@click.argument("oath")
@click.option(
    "--status",
    "status_",
    type=int,
    required=True,
    metavar="N",
    help="The Status the table sets (0 for an oath of no weight).",
)
@common
@executes(OathFulfil)
def fulfil() -> None:
    """NAME fulfils the open oath OATH (id or text) and gains --status N.

    \b
    Example:
      chronicle oath fulfil Vasana oath-1 --status 100
    """


@oath.command("break", context_settings=HELP)
@click.argument("name")
@click.argument("oath")
@click.option("--grave", is_flag=True, help="The table rules the failure grave: d6 Honor instead of 1.")
@click.option("--honor-roll", "honor_roll", type=int, metavar="N", help="The table's d6 Honor loss (grave only).")
@common
@executes(OathBreak)
def break_oath() -> None:
    """NAME breaks the open oath OATH (id or text): Honor -1, or -d6 with --grave.

    \b
    Example:
      chronicle oath break Vasana oath-1 --grave --honor-roll 4
    """


@click.group(context_settings=HELP)
def geas() -> None:
    """Geasa: take one (+5 Status each winter it is kept) or break it (+10 Status, -10 if a clan
    geas, and -d6 Honor)."""


@geas.command("take", context_settings=HELP)
@click.argument("name")
@click.argument("text")
@click.option("--clan", is_flag=True, help="A clan geas: breaking it costs 10 Status instead of gaining 10.")
@click.option("--id", "geas_id", metavar="ID", help="A short id for the geas (default geas-N).")
@common
@executes(GeasTake)
def take() -> None:
    """NAME takes the geas TEXT; later commands name it by its id or its text.

    \b
    Example:
      chronicle geas take Vasana "never eat goose" --clan
    """


@geas.command("break", context_settings=HELP)
@click.argument("name")
@click.argument("geas")
@click.option("--honor-roll", "honor_roll", type=int, metavar="N", help="The table's d6 Honor loss.")
@common
@executes(GeasBreak)
def break_geas() -> None:
    """NAME breaks the geas GEAS (id or text): +10 Status (-10 for a clan geas) and -d6 Honor.

    \b
    Example:
      chronicle geas break Vasana geas-1 --honor-roll 3
    """
