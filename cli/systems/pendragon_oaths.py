"""`chronicle oath swear | fulfil | break` and `chronicle geas take | break` (RULINGS.md section 3, Status:
oaths and geasa)."""

from __future__ import annotations

import click

from ...domain.errors import BadInput
from ...domain.pendragon import GeasBroken, GeasTaken, OathBroken, OathFulfilled, OathSworn
from ...domain.pendragon.oaths import BreakGeasInputs, BreakOathInputs, FulfilInputs, GeasInputs, SwearInputs
from ..actions import inputs
from ..context import Env
from ..options import common
from .pendragon_common import HELP, emit_told, resolve_on, table_roll


@click.group(context_settings=HELP)
def oath() -> None:
    """Oaths: swear, fulfil (Status as the table sets) or break (Honor -1, or d6 when grave)."""


@oath.command("swear", context_settings=HELP)
@click.argument("name")
@click.argument("text")
@click.option("--id", "oath_id", metavar="ID", help="A short id for the oath (default oath-N).")
@common
@click.pass_obj
def swear(env: Env, name: str, text: str, oath_id: str | None) -> None:
    """NAME swears the oath TEXT; later commands name it by its id or its text.

    \b
    Example:
      chronicle oath swear Vasana "avenge my father"
    """
    given = inputs(SwearInputs, text=text, id=oath_id)
    emit_told(env, env.write(lambda session: resolve_on(session, name, OathSworn, given, command="oath swear")))


@oath.command("fulfil", context_settings=HELP)
@click.argument("name")
@click.argument("oath_ref", metavar="OATH")
@click.option(
    "--status",
    "status_",
    type=int,
    required=True,
    metavar="N",
    help="The Status the table sets (0 for an oath of no weight).",
)
@common
@click.pass_obj
def fulfil(env: Env, name: str, oath_ref: str, status_: int) -> None:
    """NAME fulfils the open oath OATH (id or text) and gains --status N.

    \b
    Example:
      chronicle oath fulfil Vasana oath-1 --status 100
    """
    given = inputs(FulfilInputs, oath=oath_ref, status=status_)
    emit_told(env, env.write(lambda session: resolve_on(session, name, OathFulfilled, given, command="oath fulfil")))


@oath.command("break", context_settings=HELP)
@click.argument("name")
@click.argument("oath_ref", metavar="OATH")
@click.option("--grave", is_flag=True, help="The table rules the failure grave: d6 Honor instead of 1.")
@click.option("--honor-roll", "honor_roll", type=int, metavar="N", help="The table's d6 Honor loss (grave only).")
@common
@click.pass_obj
def break_oath(env: Env, name: str, oath_ref: str, grave: bool, honor_roll: int | None) -> None:
    """NAME breaks the open oath OATH (id or text): Honor -1, or -d6 with --grave.

    \b
    Example:
      chronicle oath break Vasana oath-1 --grave --honor-roll 4
    """
    if honor_roll is not None and not grave:
        raise BadInput("--honor-roll is the d6 of a grave failure: add --grave")
    given = inputs(BreakOathInputs, oath=oath_ref, grave=grave)
    emit_told(
        env,
        env.write(
            lambda session: resolve_on(
                session, name, OathBroken, given, {"honor_loss": table_roll(honor_roll)}, command="oath break"
            )
        ),
    )


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
@click.pass_obj
def take(env: Env, name: str, text: str, clan: bool, geas_id: str | None) -> None:
    """NAME takes the geas TEXT; later commands name it by its id or its text.

    \b
    Example:
      chronicle geas take Vasana "never eat goose" --clan
    """
    given = inputs(GeasInputs, text=text, clan=clan, id=geas_id)
    emit_told(env, env.write(lambda session: resolve_on(session, name, GeasTaken, given, command="geas take")))


@geas.command("break", context_settings=HELP)
@click.argument("name")
@click.argument("geas_ref", metavar="GEAS")
@click.option("--honor-roll", "honor_roll", type=int, metavar="N", help="The table's d6 Honor loss.")
@common
@click.pass_obj
def break_geas(env: Env, name: str, geas_ref: str, honor_roll: int | None) -> None:
    """NAME breaks the geas GEAS (id or text): +10 Status (-10 for a clan geas) and -d6 Honor.

    \b
    Example:
      chronicle geas break Vasana geas-1 --honor-roll 3
    """
    given = inputs(BreakGeasInputs, geas=geas_ref)
    emit_told(
        env,
        env.write(
            lambda session: resolve_on(
                session, name, GeasBroken, given, {"honor_loss": table_roll(honor_roll)}, command="geas break"
            )
        ),
    )
