"""`chronicle roll NOTATION [--for NAME] [--reason TEXT]`."""

from __future__ import annotations

from typing import Any

import click

from .options import common, faces


@click.command()
@click.argument("notation")
@click.option("--for", "for_", metavar="NAME", help="The character the roll is for (else the campaign).")
@click.option("--reason", default="", help="What the roll was for.")
@click.option("--dice", "given", metavar="FACES", help="The table's own faces, comma-separated, in rolled order.")
@common
@click.pass_obj
def roll(env: Any, notation: str, for_: str | None, reason: str, given: str | None) -> None:
    """Roll dice and record the result: NdX, dX, d%, constants, several terms, kh/kl/dh/dl.

    \b
    Example:
      chronicle roll 4d6kh3 --for Vasana --reason "new statistic"
    """
    from ..domain.dice import parse
    from ..domain.rolls import DiceRolled, roll as roll_dice
    from .output import emit

    expression = parse(notation)  # bad notation fails before the ledger is opened
    table = faces(given)

    def decide(session: Any) -> dict[str, Any]:
        owner = session.character(for_) if for_ else session.campaign
        dice = session.dice({"roll": table} if table is not None else None)
        owner.trigger_event(DiceRolled, reason=reason, by=session.by, **roll_dice(str(expression), dice))
        event = owner.pending_events[-1]
        return {"event": owner.last_event_id, "version": owner.version, "notation": event.notation,
                "total": event.total, "faces": list(event.faces), "kept": list(event.kept),
                "source": event.dice.source, "for": for_, "reason": reason}

    result = env.write(decide)
    dropped = [f for f, k in zip(result["faces"], result["kept"]) if not k]
    extra = f" (dropped {dropped})" if dropped else ""
    emit(env, result, f"{result['notation']} = {result['total']}  faces {result['faces']}{extra}  [{result['source']}]")
