"""`chronicle amend` and `chronicle replay`: corrections and what-if re-derivations."""

from __future__ import annotations

from typing import Any

import click

from ..domain.explain import words
from ..ledger.audit import amend as record_amendment
from ..ledger.audit import replay as what_if
from ..ledger.history import events
from .context import Env
from .options import common, faces, pairs
from .output import emit, width, wrapped


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
    help="A corrected dice result by purpose (e.g. save=14, damage=3,5).",
)
@click.option("--damage", type=int, help="Shorthand for --set damage=N.")
@click.option("--save-roll", type=int, help="Shorthand for --roll save=N.")
@common
@click.pass_obj
def amend(
    env: Env,
    ref: str,
    reason: str,
    void: bool,
    settings: tuple[str, ...],
    rolls: tuple[str, ...],
    damage: int | None,
    save_roll: int | None,
) -> None:
    """Correct the event REF (id, #position or time) by a new event; the original stays in the log.

    Everything that followed on that character is re-derived from its recorded inputs and dice.

    \b
    Examples:
      chronicle amend '#14' --void --reason "rolled for the wrong character"
      chronicle amend '#15' --save-roll 14 --reason "the die was misread"
    """
    corrected = pairs(settings, "set")
    if damage is not None:
        corrected["damage"] = str(damage)
    table = {purpose: faces(values, "--roll") for purpose, values in pairs(rolls, "roll").items()}
    if save_roll is not None:
        table["save"] = [save_roll]
    result = env.write(lambda session: record_amendment(session, ref, reason, void, corrected, table))

    def human() -> str:  # the correction as `log` tells it: what it changed and why
        told = next(events(env.read(), since=result["event"], until=result["event"], data=False))
        return "\n".join(
            [*wrapped(told["summary"], 0, width()), f"[event {result['event']}, version {result['version']}]"]
        )

    emit(env, result, human)


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
@click.pass_obj
def replay(env: Env, name: str | None, rulings: tuple[str, ...], fork: str | None) -> None:
    """What if: re-derive every recorded outcome (of NAME, or of everyone) under other rulings,
    cascading through later state, and show what changes. Writes nothing, unless --fork writes
    the alternative timeline as a new campaign whose events point at their originals.

    \b
    Examples:
      chronicle replay Ivanior --ruling disable_margin=5 --json
      chronicle replay --ruling death_at=-10 --fork "Greyhawk (what if)"
    """
    if fork:
        result = env.write(lambda session: what_if(session, name, pairs(rulings, "ruling"), fork))
    else:
        result = what_if(env.read(), name, pairs(rulings, "ruling"))
    emit(env, result, lambda: _told(result))


def _told(result: dict[str, Any]) -> str:
    """The replay for people: each changed event as recorded and as replayed, then where everyone ends."""
    columns = width()
    under = "; ".join(f"{key.replace('_', ' ')} {words(value)}" for key, value in result["rulings"].items())
    lines = [
        f"Replayed under the ruling{'s' if len(result['rulings']) > 1 else ''} {under}"
        + (f", written as the campaign {result['fork']['campaign']}." if "fork" in result else " (nothing written).")
    ]
    if not result["told"]:
        lines.append("No recorded outcome changes.")
    for change in result["told"]:
        lines.append(f"{change['character']}, event {change['version']} ({change['event'][:8]}):")
        lines += wrapped("Recorded: " + change["recorded"], 4, columns)
        lines += wrapped("Replayed: " + change["replayed"], 4, columns)
    lines += [f"{who} ends {summary}." for who, summary in result["final_summary"].items()]
    return "\n".join(lines)
