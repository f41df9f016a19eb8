"""`chronicle injure`, `first-aid`, `chirurgery`, `heal` and `rest` for PenDragon Pass
(RULINGS.md section 3, Injury)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ...domain.errors import BadInput
from ...domain.pendragon import ChirurgeryPerformed, FirstAidGiven, Injured, MagicallyHealed, Rested
from ...domain.pendragon.chirurgery import ChirurgeryInputs, check_healer
from ...domain.pendragon.injury import FirstAidInputs, InjureInputs, MagicHealInputs
from ...domain.pendragon.recovery import RestInputs
from ..actions import inputs
from ..context import Env
from ..options import common
from .pendragon_common import AT, HELP, emit_told, resolve_on, table_roll, value_of, when

if TYPE_CHECKING:
    from ...ledger.session import Session


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--damage", type=int, required=True, metavar="N", help="Damage of one blow, after armour.")
@click.option(
    "--save-roll",
    "save_roll",
    type=int,
    metavar="N",
    help="Accepted for the contract's common form; PenDragon Pass has no injury save,"
    " so it is ignored and not recorded.",
)
@click.option("--attacker", metavar="NAME", default="", help="Who dealt the blow, for the log.")
@click.option("--force", is_flag=True, help="Wound a dead character anyway.")
@AT
@common
@click.pass_obj
def injure(env: Env, name: str, damage: int, save_roll: int | None, attacker: str, force: bool, at: str | None) -> None:
    """One wound of --damage N on NAME, tracked on its own: a wound of CON or more is a major wound
    (needs Chirurgery), damage over SIZ a knockdown; at a quarter of hit points NAME falls
    unconscious (ruling unconscious_threshold), at 0 dies. A dead character is
    refused (exit 1) unless --force.

    \b
    Example:
      chronicle injure Vasana --damage 14
    """
    given = inputs(InjureInputs, damage=damage, at=when(at), attacker=attacker, force=force)
    emit_told(env, env.write(lambda session: resolve_on(session, name, Injured, given, command="injure")))


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("wound", type=int)
@click.option(
    "--roll", type=int, metavar="N", help="The table's d20 for the healer's First Aid (needs --skill or --healer)."
)
@click.option("--skill", type=int, metavar="N", help="The healer's First Aid value: a failed roll heals nothing.")
@click.option("--healer", metavar="NAME", help="The healer, whose first_aid value is copied in (instead of --skill).")
@click.option("--heal-roll", "heal_roll", type=int, metavar="N", help="The table's d3 of healing.")
@click.option("--force", is_flag=True, help="Treat a dead character anyway.")
@AT
@common
@click.pass_obj
def first_aid(
    env: Env,
    name: str,
    wound: int,
    roll: int | None,
    skill: int | None,
    healer: str | None,
    heal_roll: int | None,
    force: bool,
    at: str | None,
) -> None:
    """First Aid on NAME's wound WOUND: once per wound, within a day of it; heals 1d3.
    Without --skill or --healer the aid is taken as successful. A dead character
    is refused (exit 1) unless --force.

    \b
    Example:
      chronicle first-aid Vasana 1 --healer Harrek --roll 8 --heal-roll 2
    """
    if skill is not None and healer:
        raise BadInput("give --skill N or --healer NAME, not both")
    if roll is not None and skill is None and not healer:
        raise BadInput("--roll is the healer's First Aid roll: give --skill N or --healer NAME")

    def decide(session: Session) -> Any:
        value = skill
        if healer:
            _, value, _ = value_of(session, f"{healer}:first_aid", "--healer")
        given = inputs(FirstAidInputs, wound=wound, at=when(at), skill=value, healer=healer or "", force=force)
        return resolve_on(
            session,
            name,
            FirstAidGiven,
            given,
            {"check": table_roll(roll), "heal": table_roll(heal_roll)},
            command="first-aid",
        )

    emit_told(env, env.write(decide))


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("wound", type=int)
@click.option("--points", type=int, required=True, metavar="N", help="What the spell heals.")
@click.option(
    "--heals-all",
    "heals_all",
    is_flag=True,
    help="The spell heals all damage (clears a major wound's need for Chirurgery).",
)
@click.option(
    "--regrows-limbs",
    "regrows_limbs",
    is_flag=True,
    help="The spell regrows limbs (clears a major wound's need for Chirurgery).",
)
@click.option(
    "--window-hours",
    "window_hours",
    type=int,
    default=1,
    show_default=True,
    metavar="H",
    help="The spell heals only wounds at most H hours old.",
)
@click.option("--any-age", "any_age", is_flag=True, help="The spell heals wounds of any age.")
@AT
@common
@click.pass_obj
def heal(
    env: Env,
    name: str,
    wound: int,
    points: int,
    heals_all: bool,
    regrows_limbs: bool,
    window_hours: int,
    any_age: bool,
    at: str | None,
) -> None:
    """Magical healing of NAME's wound WOUND by --points N: once per wound. Waking an unconscious
    character ends its need for Chirurgery; a major wound's only with --heals-all or --regrows-limbs.

    \b
    Example:
      chronicle heal Vasana 1 --points 6
    """
    given = inputs(
        MagicHealInputs,
        wound=wound,
        points=points,
        at=when(at),
        heals_all=heals_all,
        regrows_limbs=regrows_limbs,
        window_hours=window_hours,
    )
    if any_age:
        given = given.model_copy(update={"window_hours": None})
    emit_told(env, env.write(lambda session: resolve_on(session, name, MagicallyHealed, given, command="heal")))


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--hours", type=int, metavar="H", help="Hours of rest.")
@click.option("--minutes", type=int, metavar="M", help="Minutes of rest.")
@click.option("--interrupted", is_flag=True, help="A significant interruption: nothing heals.")
@common
@click.pass_obj
def rest(env: Env, name: str, hours: int | None, minutes: int | None, interrupted: bool) -> None:
    """Natural healing: NAME heals its Healing Rate, (STR + CON) // 10, per full week of rest, oldest
    wounds first; wounds awaiting Chirurgery do not heal on their own (standard Pendragon, a table
    ruling where the seed is silent). A rest that heals nothing is still recorded.

    \b
    Example:
      chronicle rest Vasana --hours 336
    """
    given = inputs(RestInputs, hours=hours, minutes=minutes, interrupted=interrupted)
    emit_told(env, env.write(lambda session: resolve_on(session, name, Rested, given, command="rest")))


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--healer", metavar="NAME", help="Who operates; their chirurgery value is copied in (never NAME itself).")
@click.option("--skill", type=int, metavar="N", help="The healer's Chirurgery value, when the healer has no sheet.")
@click.option("--roll", type=int, metavar="N", help="The table's d20 for the healer's Chirurgery.")
@click.option("--damage-roll", "damage_roll", type=int, metavar="N", help="The table's d6 of a fumble's wound.")
@AT
@common
@click.pass_obj
def chirurgery(
    env: Env,
    name: str,
    healer: str | None,
    skill: int | None,
    roll: int | None,
    damage_roll: int | None,
    at: str | None,
) -> None:
    """Chirurgery on NAME (a major wound, or after falling unconscious): a d20
    against the healer's Chirurgery, once a week of care (ruling
    chirurgery_interval_days). Success ends every need for Chirurgery, so rest
    heals again; a critical also heals the Healing Rate at once (ruling
    chirurgery_critical); failure changes nothing; a fumble deals a new wound
    of 1d6. Refused (exit 1) on the dead, on a patient who needs none, and by
    the patient on themself.

    \b
    Example:
      chronicle chirurgery Vasana --healer Harrek --roll 8
    """
    if (skill is None) == (healer is None):
        raise BadInput("give --healer NAME or --skill N (the healer's Chirurgery)")

    def decide(session: Session) -> Any:
        value = skill
        if healer:
            check_healer(name, healer)
            _, value, _ = value_of(session, f"{healer}:chirurgery", "--healer")
        given = inputs(ChirurgeryInputs, skill=value, healer=healer or "", at=when(at))
        table = {"check": table_roll(roll), "damage": table_roll(damage_roll)}
        return resolve_on(session, name, ChirurgeryPerformed, given, table, command="chirurgery")

    emit_told(env, env.write(decide))
