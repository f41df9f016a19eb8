"""`chronicle grab object|person|monster|break-hold|state`: the Strength contests of the seed's Grab
section after a grab hit (`chronicle attack A B --maneuver grab-...`), and the states they hinge on. Each
is its options, its help and the model the application layer runs (`chronicle.ledger.application.commands.adnd2e`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ...ledger.application.commands.adnd2e import (
    GrabBreakHold,
    GrabContest,
    GrabMonster,
    GrabObject,
    GrabPerson,
    GrabState,
)
from ..commanding import executes
from ..options import common

DICE_HELP = "The table's d20s in rolled order, two an exchange (first the grabber's), e.g. 5,4 or 6,6,9,3 after a tie."


@click.group()
def grab() -> None:
    """Strength contests after a grab hits, breaking holds, and the asleep/held states.

    Roll the grab itself first (a called shot at -4) with
    `chronicle attack GRABBER TARGET --maneuver grab-object|grab-person|grab-monster`.

    \b
    Example:
      chronicle grab person Brute Guard --dice 1,1
    """


def contest(model: type[GrabContest], summary: str, *extra: Callable[[Any], Any]) -> click.Command:
    """One `grab object|person|monster GRABBER TARGET` command, recorded on TARGET."""

    def command() -> None:
        pass

    command.__doc__ = summary
    wrapped: Any = common(executes(model)(command))
    wrapped = click.option("--dice", metavar="FACES", help=DICE_HELP)(wrapped)
    wrapped = click.option("--target-strength", metavar="S", help="TARGET's Strength, if not on its sheet.")(wrapped)
    wrapped = click.option("--strength", metavar="S", help="The grabber's Strength (e.g. 18/76), if not on its sheet.")(
        wrapped
    )
    wrapped = click.argument("target")(wrapped)
    wrapped = click.argument("grabber")(wrapped)
    for option in extra:  # listed first in the help
        wrapped = option(wrapped)
    return grab.command(model.command.split()[1])(wrapped)


contest(
    GrabObject,
    """GRABBER tries to wrest an object from TARGET, its holder: both roll d20
    against Strength, the better margin wins (18/xx count 18; ties go to the higher percentile, else re-roll).

    \b
    Example:
      chronicle grab object Thief Guard --dice 5,4
    """,
)

contest(
    GrabPerson,
    """GRABBER grabs TARGET one-handed: Strength 3 lower (18/xx by the seed's
    table), adjusted for size; a win holds TARGET (at -4 except with wrestling attacks).

    \b
    Example:
      chronicle grab person Brute Guard --dice 1,1
    """,
)

contest(
    GrabMonster,
    """GRABBER grabs the monster TARGET: Strength +3 against a smaller, -6 against a larger
    one (halved for player races); the monster's Strength from its sheet, --target-strength or --attacks.

    \b
    Example:
      chronicle grab monster Brute Nightmare --attacks 2-8/4-10/4-10 --carrier --dice 4,9
    """,
    click.option("--carrier", is_flag=True, help="With --attacks: known for carrying, +8."),
    click.option("--attacks", metavar="DAMAGE", help="The monster's attacks (2-8/4-10/4-10) for its rough Strength."),
)


@grab.command("break-hold")
@click.argument("name")
@click.option(
    "--holder-strength",
    metavar="S",
    help="The holder's Strength, held one-handed (default: as it counted in the grab).",
)
@click.option("--strength", metavar="S", help="NAME's own Strength, if not on its sheet.")
@click.option(
    "--attacks", metavar="DAMAGE", help="NAME is a monster: its attacks (2-8/4-10/4-10) give its rough Strength."
)
@click.option("--carrier", is_flag=True, help="With --attacks: known for carrying, +8.")
@click.option("--dice", metavar="FACES", help="The table's d20s, two an exchange (first NAME's).")
@common
@executes(GrabBreakHold)
def break_hold() -> None:
    """NAME, held, spends its attack on the Strength contest against the holder's Strength as it counted in
    the grab (one-handed, size-adjusted), or the --holder-strength given, held one-handed.

    \b
    Example:
      chronicle grab break-hold Guard --dice 3,9
    """


@grab.command("state")
@click.argument("name")
@click.option("--asleep/--awake", default=None, help="A sleep spell took hold, or the sleeper woke.")
@click.option(
    "--magically-held/--magic-released", "magically_held", default=None, help="Hold person and the like, or its end."
)
@click.option("--held-by", metavar="HOLDER", help="NAME is held by HOLDER (outside a recorded grab).")
@click.option("--released", is_flag=True, help="NAME's hold ends (the holder let go).")
@common
@executes(GrabState)
def state() -> None:
    """Record one state change of NAME: exactly one of --asleep/--awake, --magically-held/--magic-released,
    --held-by HOLDER or --released. Asleep or magically held victims are hit automatically by a sap.

    \b
    Example:
      chronicle grab state Guard --asleep
    """
