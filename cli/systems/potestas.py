"""Potestas commands (seed 000; docs/rulings.md, Potestas): injure, dying-save, exert, rest, attack, fall, and the
`rules fortitude-dc` / `rules falling` queries. Each command is its options, its help and the model the
application layer runs (`chronicle.ledger.application.commands.potestas`)."""

from __future__ import annotations

import click

from ...domain.potestas import falling, fortitude_dc
from ...domain.potestas.explain import dc_formula, falling_told
from ...ledger.application.commands.potestas import DyingSave, Exert, Fall, Injure, Rest
from ..commanding import executes
from ..context import Env
from ..options import common
from ..output import emit
from .potestas_attack import HELP, attack

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
@executes(Injure)
def injure() -> None:
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
@executes(DyingSave)
def dying_save() -> None:
    """A dying character's save for this turn: d20 + Fort - 1 per wound against
    DC 10 + 1 for each round NAME has been unconscious (ruling dying_dc): each
    dying save is a round, and so are rounds knocked out or stable before it.
    Success: stable. Failure: still dying (ruling dying_failure). Natural 1
    and 20: ruling dying_save_naturals. Refused (exit 1) unless dying.

    \b
    Example:
      chronicle dying-save Brand --roll 14
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--action", metavar="TEXT", help="What was done: a standard action, moving over half speed, ...")
@common
@executes(Exert)
def exert() -> None:
    """Record a strenuous action by NAME: disabled becomes dying, staggered
    becomes unconscious; otherwise nothing changes. Refused (exit 1) for an
    unconscious character or an object.

    \b
    Example:
      chronicle exert Brand --action "charged the ogre"
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--hours", type=int, metavar="H", help="Hours of rest: 1 wound per 8 hours, 3 per full day.")
@click.option(
    "--minutes", type=int, metavar="M", help="Minutes of rest: 1 nonlethal wound per 20 minutes, 3 per full hour."
)
@click.option("--days", type=int, metavar="D", help="Days of rest (24 hours each).")
@click.option("--weeks", type=int, metavar="W", help="Weeks of rest (168 hours each).")
@click.option("--interrupted", is_flag=True, help="The rest was interrupted: time passes, nothing heals.")
@click.option("--force", is_flag=True, help="Rest a dead character, or a dying one not yet stable, anyway.")
@common
@executes(Rest)
def rest() -> None:
    """Natural healing for NAME over --hours H, --minutes M, --days D or --weeks W (exactly one):
    3 * (H // 24) + (H % 24) // 8 wounds and 3 * (m // 60) + (m % 60) // 20
    nonlethal wounds for m minutes; each healed wound moves its ladder up a
    step. A rest that heals nothing is still recorded. The dead, and the
    dying who are not stable (they save each round: dying-save), are
    refused (exit 1) unless --force.

    \b
    Example:
      chronicle rest Brand --hours 8
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--feet", type=int, required=True, metavar="N", help="Height of the fall in feet.")
@click.option("--save-roll", type=int, metavar="N", help="The table's d20 Fortitude save.")
@click.option("--force", is_flag=True, help="Let a dead character or destroyed object fall anyway.")
@common
@executes(Fall)
def fall() -> None:
    """NAME falls N feet: 4 bludgeoning damage per full 5 ft/s of impact
    velocity, min(sqrt(70 * feet), 210), then the injury rules (DR, save).
    A --save-roll given when no damage gets through is ignored, with a note.

    \b
    Example:
      chronicle fall Brand --feet 30 --save-roll 12
    """


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
    emit(env, drop.model_dump(mode="json"), falling_told(drop))
