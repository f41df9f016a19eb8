"""Potestas commands (seed 000; RULINGS.md 1): injure, dying-save, exert, rest, attack, fall, and the
`rules fortitude-dc` / `rules falling` queries. Each converts options to the domain's inputs, records
one event (an attack: one for the attack and one per hit) and explains the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ...domain.errors import BadInput
from ...domain.potestas import (
    DyingSaveInputs,
    DyingSaveMade,
    Exerted,
    ExertionInputs,
    FallInputs,
    Fell,
    Injured,
    InjuryInputs,
    Rested,
    RestInputs,
    falling,
    fortitude_dc,
)
from ...domain.potestas.explain import dc_formula, fall_sentence, next_hit
from ..actions import inputs
from ..context import Env
from ..options import common
from ..output import emit
from .potestas_attack import attack
from .potestas_common import HELP, d20, document, ignored_notes, potestas_character, told

if TYPE_CHECKING:
    from ...ledger.recorded import Recorded
    from ...ledger.session import Session

__all__ = ["injure", "dying_save", "exert", "rest", "attack", "fall", "rules_fortitude_dc", "rules_falling"]


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--damage", type=int, required=True, metavar="N", help="Damage before DR (energy riders included).")
@click.option("--nonlethal", is_flag=True, help="Nonlethal damage: a failed save is a nonlethal wound.")
@click.option(
    "--type",
    "type_",
    metavar="TYPE[,TYPE...]",
    help="Damage type and qualities, comma-separated (slashing,magic): bludgeoning, piercing, slashing, "
    "silver, cold_iron, adamantine, magic, fire, cold, acid, electricity, sonic (energy) or spell; "
    "energy and spell ignore DR.",
)
@click.option("--save-roll", type=int, metavar="N", help="The table's d20 Fortitude save.")
@click.option("--force", is_flag=True, help="Injure a dead character or a destroyed object anyway.")
@common
@click.pass_obj
def injure(
    env: Env, name: str, damage: int, nonlethal: bool, type_: str | None, save_roll: int | None, force: bool
) -> None:
    """Apply DAMAGE to NAME: DR (hardness for objects), then a Fortitude save
    against DC 15 + damage // 5; a failure is a wound (or a nonlethal wound),
    and failing by disable_margin (10) also disables (staggers).

    A --save-roll given when DR removes all damage is accepted and ignored
    (no save is rolled then; the output says so). A dead character or
    destroyed object is refused (exit 1) unless --force.

    \b
    Example:
      chronicle injure Brand --damage 12 --type slashing --save-roll 9
    """
    given = inputs(InjuryInputs, damage=damage, type=type_, nonlethal=nonlethal, force=force)
    recorded = env.ledger.injure(name, Injured, given, {"save": d20(save_roll, "--save-roll")})
    notes = ignored_notes(recorded, {"save": "--save-roll"})
    emit(env, lambda: document(recorded, notes), lambda: told(recorded, notes))


@click.command("dying-save", context_settings=HELP)
@click.argument("name")
@click.option("--roll", type=int, metavar="N", help="The table's d20.")
@click.option(
    "--rounds",
    type=int,
    metavar="N",
    help="Rounds NAME lay unconscious before this one that no event shows (knocked out, or stable); "
    "they add to the DC.",
)
@common
@click.pass_obj
def dying_save(env: Env, name: str, roll: int | None, rounds: int | None) -> None:
    """A dying character's save for this turn: d20 + Fort - 1 per wound against
    DC 10 + 1 for each round NAME has been unconscious (ruling dying_dc): each
    dying save is a round, and so are rounds knocked out or stable before it.
    Success: stable. Failure: still dying (ruling dying_failure). Natural 1
    and 20: ruling dying_save_naturals. Refused (exit 1) unless dying.

    \b
    Example:
      chronicle dying-save Brand --roll 14
    """
    table = {"save": d20(roll, "--roll")}
    given = inputs(DyingSaveInputs, rounds=rounds)
    recorded = env.write(lambda session: _record(session, name, "dying-save", DyingSaveMade, given, table))
    emit(env, lambda: recorded.document, lambda: told(recorded))


def _record(session: Session, name: str, command: str, action: type, given: Any, table: Any = None) -> Recorded:
    return session.record(potestas_character(session, name, command), action, given, table)


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--action", metavar="TEXT", help="What was done: a standard action, moving over half speed, ...")
@common
@click.pass_obj
def exert(env: Env, name: str, action: str | None) -> None:
    """Record a strenuous action by NAME: disabled becomes dying, staggered
    becomes unconscious; otherwise nothing changes. Refused (exit 1) for an
    unconscious character or an object.

    \b
    Example:
      chronicle exert Brand --action "charged the ogre"
    """
    given = inputs(ExertionInputs, action=action)
    recorded = env.write(lambda session: _record(session, name, "exert", Exerted, given))
    emit(env, lambda: recorded.document, lambda: told(recorded))


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--hours", type=int, metavar="H", help="Hours of rest: 1 wound per 8 hours, 3 per full day.")
@click.option(
    "--minutes", type=int, metavar="M", help="Minutes of rest: 1 nonlethal wound per 20 minutes, 3 per full hour."
)
@click.option("--interrupted", is_flag=True, help="The rest was interrupted: time passes, nothing heals.")
@common
@click.pass_obj
def rest(env: Env, name: str, hours: int | None, minutes: int | None, interrupted: bool) -> None:
    """Natural healing for NAME over --hours H or --minutes M (exactly one):
    3 * (H // 24) + (H % 24) // 8 wounds and 3 * (m // 60) + (m % 60) // 20
    nonlethal wounds for m minutes; each healed wound moves its ladder up a
    step. A rest that heals nothing is still recorded.

    \b
    Example:
      chronicle rest Brand --hours 8
    """
    if (hours is None) == (minutes is None):
        raise BadInput("give exactly one of --hours H or --minutes M")
    given = inputs(RestInputs, hours=hours, minutes=minutes, interrupted=interrupted)
    recorded = env.ledger.rest(name, Rested, given)
    emit(env, lambda: recorded.document, lambda: told(recorded))


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--feet", type=int, required=True, metavar="N", help="Height of the fall in feet.")
@click.option("--save-roll", type=int, metavar="N", help="The table's d20 Fortitude save.")
@click.option("--force", is_flag=True, help="Let a dead character or destroyed object fall anyway.")
@common
@click.pass_obj
def fall(env: Env, name: str, feet: int, save_roll: int | None, force: bool) -> None:
    """NAME falls N feet: 4 bludgeoning damage per full 5 ft/s of impact
    velocity, min(sqrt(70 * feet), 210), then the injury rules (DR, save).
    A --save-roll given when no damage gets through is ignored, with a note.

    \b
    Example:
      chronicle fall Brand --feet 30 --save-roll 12
    """
    given = inputs(FallInputs, feet=feet, force=force)
    table = {"save": d20(save_roll, "--save-roll")}
    recorded = env.write(lambda session: _record(session, name, "fall", Fell, given, table))
    notes = ignored_notes(recorded, {"save": "--save-roll"})

    def data() -> dict[str, Any]:
        result = document(recorded, notes)
        return {
            **result,
            **result["fall"],
            **result["injury"],
            "condition": result["condition"],
            "event": result["event"],
            "version": result["version"],
        }

    emit(env, data, lambda: told(recorded, notes))


@click.command("fortitude-dc", context_settings={"ignore_unknown_options": True})
@click.argument("damage", type=int)
@common
@click.pass_obj
def rules_fortitude_dc(env: Env, damage: int) -> None:
    """The injury save DC for DAMAGE left after DR: 15 + damage // 5.

    \b
    Example:
      chronicle rules fortitude-dc 12 --json
    """
    dc = fortitude_dc(damage)
    emit(env, {"dc": dc}, dc_formula(damage))


@click.command("falling", context_settings={"ignore_unknown_options": True})
@click.argument("feet", type=int)
@common
@click.pass_obj
def rules_falling(env: Env, feet: int) -> None:
    """Impact velocity, hits and damage of a FEET fall: velocity =
    min(sqrt(70 * feet), 210) ft/s, hits = velocity // 5, damage = 4 * hits.

    \b
    Example:
      chronicle rules falling 630 --json
    """
    drop = falling(feet)
    data = {"feet": drop.feet, "velocity": drop.velocity, "hits": drop.hits, "damage": drop.damage}
    emit(env, data, f"{fall_sentence(drop).capitalize()}. {next_hit(drop)}")
