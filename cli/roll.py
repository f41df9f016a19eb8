"""`chronicle roll NOTATION [--for NAME] [--reason TEXT]`."""

from __future__ import annotations

from typing import Any

import click

from .options import common, faces
from .output import emit


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

    expression = parse(notation)  # bad notation fails before the ledger is opened
    table = faces(given)

    def decide(session: Any) -> Any:
        owner = session.character(for_) if for_ else session.campaign
        dice = session.dice({"roll": table} if table is not None else None)
        owner.trigger_event(DiceRolled, reason=reason, by=session.by, timestamp=session.now(),
                            **roll_dice(expression, dice))
        return owner.pending_events[-1]

    event = env.write(decide)
    emit(env, lambda: _result(event, for_, reason), lambda: _human(event))


def _result(event: Any, for_: str | None, reason: str) -> dict[str, Any]:
    from ..domain.ids import event_id

    return {"event": event_id(event.originator_id, event.originator_version), "version": event.originator_version,
            "notation": event.notation, "total": event.total, "faces": list(event.faces), "kept": list(event.kept),
            "source": event.dice.source, "for": for_, "reason": reason}


def _human(event: Any) -> str:
    dropped = [f for f, k in zip(event.faces, event.kept) if not k]
    extra = f" (dropped {dropped})" if dropped else ""
    return f"{event.notation} = {event.total}  faces {list(event.faces)}{extra}  [{event.dice.source}]"
