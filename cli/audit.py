"""`chronicle amend` and `chronicle replay`: corrections and what-if re-derivations."""

from __future__ import annotations

from typing import Any

import click

from .commanding import build, executes, render
from .options import common


@click.command()
@click.argument("ref", metavar="REF")
@click.option("--reason", required=True, help="Why the event is corrected (kept in the log).")
@click.option("--void", is_flag=True, help="The event no longer counts.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE", help="A corrected input (e.g. damage=9).")
@click.option(
    "--roll",
    "rolls",
    multiple=True,
    metavar="PURPOSE=FACES",
    help="A corrected dice result, NAME=FACES, by the name `log --json` gives the event's dice under "
    "`correctable` (e.g. save=14, damage:1:1=3,5).",
)
@click.option("--damage", type=int, help="Shorthand for --set damage=N.")
@click.option("--save-roll", type=int, help="The event's save die, whatever its purpose is called (save:1 for a hit).")
@common
@executes("audit:Amend")
def amend() -> None:
    """Correct the event REF (id, position as 12 or #12, or time) by a new event; the original stays in the log.

    Everything that followed on that character is re-derived from its recorded inputs and dice; an
    attack's hits follow the attack as corrected. A correction that changes no recorded outcome is
    refused (exit 1).

    The dice an event rolled are listed by `log --json` under each event's
    `correctable`; their names:

    \b
      attack, confirm        the attack roll and a critical's confirmation
      damage, damage:H:W     damage dice (hit H, weapon W of a Potestas attack)
      save, save:H           a save (hit H's); --save-roll N is the event's save
      defence, defence_damage  an AD&D armed defender's strike and its damage
      knockout, knockout_rounds  a sap's d100 and the rounds out cold (2d8)
      check, opponent        a PenDragon roll and its opponent's
      heal, honor_loss       First Aid's d3, Honor lost (d6)
      productivity, worship, experience:NAME, training  a winter's rolls

    \b
    Examples:
      chronicle amend 14 --void --reason "rolled for the wrong character"
      chronicle amend '#15' --save-roll 14 --reason "the die was misread"
    """


@click.command()
@click.argument("name", required=False)
@click.option(
    "--ruling",
    "rulings",
    multiple=True,
    required=True,
    metavar="KEY=VALUE",
    help="A ruling to replay under (repeatable).",
)
@click.option("--fork", metavar="NEW_CAMPAIGN", help="Write the alternative timeline as a new campaign.")
@common
@click.pass_context
def replay(ctx: click.Context, /, **params: Any) -> None:
    """What if: re-derive every recorded outcome (of NAME, or of everyone) under other rulings,
    cascading through later state, and show what changes. Writes nothing, unless --fork writes
    the alternative timeline as a new campaign whose events point at their originals.

    \b
    Examples:
      chronicle replay Ivanior --ruling disable_margin=5 --json
      chronicle replay --ruling death_at=-10 --fork "Greyhawk (what if)"
    """
    from ..ledger.application.commands import (
        audit,  # when it runs, as `executes` imports its model: `--help` loads none
    )

    env = ctx.obj
    if params["fork"] is None:  # a read: no command, nothing written
        render(env, audit.what_if(env.read(), params["name"], list(params["rulings"])))
    else:
        render(env, env.ledger.execute(build(audit.Replay, ctx.command, params)))


replay.callback.executes = "audit:Replay"  # type: ignore[union-attr]  # the document `--fork` builds (tests)
