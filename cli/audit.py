"""`chronicle amend` and `chronicle replay`: corrections and what-if re-derivations."""

from __future__ import annotations

from typing import Any

import click

from .commanding import build, executes, query, render
from .modelled import Modelled
from .options import common


@click.command(
    cls=Modelled,
    arguments=["ref"],
    fields={"ref": {"metavar": "REF"}, "set_": {"metavar": "KEY=VALUE"}, "roll": {"metavar": "NAME=FACES"}},
)
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


@click.command(
    cls=Modelled,
    model="commands.audit:Replay",  # (without --fork, its query: `replay` writes nothing)
    arguments=["name"],
    fields={"ruling": {"metavar": "KEY=VALUE"}, "fork": {"metavar": "NEW_CAMPAIGN", "required": False}},
)
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
    env = ctx.obj
    if params["fork"] is None:  # a read: no command, nothing written
        render(env, env.ledger.ask(query("audit:WhatIf", params)))
    else:
        from ..ledger.application.commands import (
            audit,  # when it runs, as `executes` imports its model: `--help` loads none
        )

        render(env, env.ledger.execute(build(audit.Replay, ctx.command, params)))


replay.callback.executes = "audit:Replay"  # type: ignore[union-attr]  # the document `--fork` builds (tests)
