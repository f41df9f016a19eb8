"""AD&D 2E non-lethal combat commands (seed 003; docs/rulings.md, AD&D 2E): injure, rest, attack, mug, grab, and the
`rules monster-strength` / `rules mug-save` queries. Each command is its options, its help and the model
the application layer runs (`chronicle.ledger.application.commands.adnd2e`)."""

from __future__ import annotations

from typing import get_args

import click

from ...domain.adnd2e import monster_strength, mug_save
from ...domain.adnd2e.attacks import Maneuver
from ...domain.adnd2e.damage import Mode
from ...domain.adnd2e.explain import monster_strength_told, mug_save_told
from ...ledger.application.commands.adnd2e import Attack, Injure, Mug, Rest
from ..commanding import executes
from ..context import Env
from ..options import common
from ..output import emit
from .adnd2e_grab import grab

# Dispatched commands run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}

__all__ = ["injure", "rest", "attack", "mug", "grab", "rules_monster_strength", "rules_mug_save"]


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--damage", type=int, required=True, metavar="N", help="The rolled weapon damage (magic bonus included).")
@click.option(
    "--mode",
    type=click.Choice(get_args(Mode)),
    required=True,
    help="lethal: all real; armed-nonlethal and subdual: half, half of it temporary; sap: 25% real.",
)
@click.option("--knockout-roll", type=int, metavar="N", help="Sap: the table's d100 knockout roll.")
@click.option("--knockout-dice", metavar="A,B", help="Sap: the table's 2d8 faces for the knockout's rounds.")
@click.option("--magic-bonus", type=int, metavar="N", help="Sap: the weapon's magic bonus, which a sap ignores.")
@click.option("--attacker", metavar="NAME", help="Who dealt the damage, for the story told in the log.")
@click.option(
    "--helpless",
    is_flag=True,
    help="Sap: the victim is asleep or magically held (10% a point, up to 80%) though the ledger does not say so.",
)
@common
@executes(Injure)
def injure() -> None:
    """Apply the rolled weapon --damage to NAME, split into real and temporary damage by --mode.

    A sap also rolls the knockout chance: 5% a point of damage, at most 40%
    (10% and 80% against a sleeping or held victim); d100 at or under it knocks
    out for 2d8 rounds (ruling sap_knockout_rounds).

    \b
    Example:
      chronicle injure Guard --damage 7 --mode sap --knockout-roll 20 --knockout-dice 2,3
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--hours", type=int, metavar="H", help="Hours of rest (1 real hp a full day, ruling real_recovery).")
@click.option(
    "--minutes", type=int, metavar="M", help="Minutes of rest (1 temporary hp a turn of 10, ruling temporary_recovery)."
)
@click.option("--days", type=int, metavar="D", help="Days of rest (24 hours each).")
@click.option("--weeks", type=int, metavar="W", help="Weeks of rest (168 hours each).")
@click.option("--interrupted", is_flag=True, help="The rest was interrupted: time passes, nothing heals.")
@click.option("--force", is_flag=True, help="Rest a dead character anyway (it heals nothing).")
@common
@executes(Rest)
def rest() -> None:
    """Natural healing for NAME over --hours H, --minutes M, --days D or --weeks W (exactly one); recorded even
    if it heals nothing. The dead are refused (exit 1) unless --force.

    \b
    Example:
      chronicle rest Brand --minutes 20
    """


@click.command(context_settings=HELP)
@click.argument("attacker")
@click.argument("target")
@click.option(
    "--maneuver",
    type=click.Choice(get_args(Maneuver)),
    default="normal",
    show_default=True,
    help="The kind of attack; called shots (sap, grab-*) add +1 to initiative.",
)
@click.option(
    "--weapon",
    metavar="NAME",
    help="A weapon on ATTACKER's sheet, by name (default: its only one; none for bare-handed maneuvers);"
    " its kind, size and missile flag come from the sheet.",
)
@click.option(
    "--missile", is_flag=True, help="The weapon is thrown: a missile attack (never a sap or a non-lethal one)."
)
@click.option("--roll", type=int, metavar="N", help="The table's d20 attack roll.")
@click.option(
    "--thac0",
    type=int,
    metavar="N",
    help="The attacker's THAC0, if not on its sheet (else a monster's by its hit dice, ruling monster_thac0, or 20).",
)
@click.option(
    "--wrestling-round",
    type=int,
    metavar="N",
    help="Round of the wrestling bout (after the first: small weapons only).",
)
@click.option(
    "--defender-armed", is_flag=True, help="The target holds a weapon: against bare hands it strikes first at +4/+4."
)
@click.option("--defender-roll", type=int, metavar="N", help="The table's d20 for the armed defender's first strike.")
@click.option(
    "--dice",
    metavar="FACES",
    help="The table's faces for a hit's damage dice (the weapon's damage=DICE on the sheet; bare hands 1d2).",
)
@click.option(
    "--defender-weapon",
    metavar="NAME",
    help="The weapon on TARGET's sheet its strike is made with (default: its only weapon).",
)
@click.option(
    "--defender-dice", metavar="FACES", help="The table's faces for the damage dice of the armed defender's strike."
)
@click.option("--knockout-roll", type=int, metavar="N", help="Sap: the table's d100 knockout roll.")
@click.option("--knockout-dice", metavar="A,B", help="Sap: the table's 2d8 faces for the knockout's rounds.")
@click.option("--no-free-hand", "no_free_hand", is_flag=True, help="The attacker has no free hand (no grab).")
@common
@executes(Attack)
def attack() -> None:
    """One attack by ATTACKER on TARGET with the maneuver's modifiers, recorded on TARGET.

    A hit rolls the weapon's damage (or takes the table's --dice) and applies it
    to TARGET in the maneuver's mode: normal is lethal; armed-nonlethal,
    subdual and the bare-handed maneuvers deal half, half of it temporary; a
    sap 25% real, with its knockout chance. Mugging and grabs deal none here.
    An armed defender's strike that hits deals its weapon's damage +4 to ATTACKER.

    THAC0, height, class, whether the attacker is held and the --weapon are
    copied from ATTACKER's sheet, which lists its weapons as
    --stat 'weapons=club:blunt,small,damage=1d6;long sword:edged,damage=1d8'
    (each blunt, edged or piercing; missile; small, medium or large; damage=DICE; magic=N).
    A refused maneuver (a mace used non-lethally, a sap on a large victim,
    a missile sap, a mugging where no backstab is possible) exits 1.

    \b
    Example:
      chronicle attack Thief Guard --maneuver sap --weapon club --roll 19 --dice 4
    """


@click.command(context_settings=HELP)
@click.argument("mugger")
@click.argument("victim")
@click.option(
    "--save-number",
    type=click.IntRange(1, 20),
    metavar="S",
    help="The victim's base save vs petrification (1-20); default its sheet's petrification=N.",
)
@click.option("--save-roll", type=int, metavar="N", help="The table's d20 save roll.")
@click.option(
    "--knockout-dice", metavar="A,B", help="The table's 2d8 faces for the knockout rounds (only if the save fails)."
)
@click.option(
    "--weapon", metavar="NAME", help="The blunt weapon on MUGGER's sheet (default: its only blunt melee weapon)."
)
@common
@executes(Mug)
def mug() -> None:
    """After a mugging hit: VICTIM saves vs petrification, the number raised by MUGGER's level
    minus VICTIM's level or HD.

    Only a thief (class=thief on its sheet) mugs, with a blunt melee weapon, never
    itself; refused (exit 1) otherwise, where no backstab is allowed, against a
    victim more than twice the mugger's height, or against the dead. A failed
    save knocks out for 2d8 rounds. A number above 20 is saved only on a natural
    20 (ruling save_above_20).

    \b
    Example:
      chronicle mug Thief Ogre --save-number 12 --save-roll 16
    """


@click.command("monster-strength")
@click.argument("attacks")
@click.option("--carrier", is_flag=True, help="Known for carrying (or made of such an animal): +8.")
@common
@click.pass_obj
def rules_monster_strength(env: Env, attacks: str, carrier: bool) -> None:
    """A monster's rough Strength from its ATTACKS damage: the largest maximum, +1 per attack beyond
    the first, +8 if a carrier.

    \b
    Example:
      chronicle rules monster-strength 2-8/4-10/4-10 --carrier --json
    """
    emit(env, {"strength": monster_strength(attacks, carrier)}, monster_strength_told(attacks, carrier))


@click.command("mug-save")
@click.option(
    "--base", type=click.IntRange(1, 20), required=True, metavar="S", help="The victim's base save vs petrification."
)
@click.option("--mugger-level", type=click.IntRange(min=0), required=True, metavar="L")
@click.option(
    "--victim-level", type=click.IntRange(min=0), required=True, metavar="V", help="Level, or hit dice for a monster."
)
@common
@click.pass_obj
def rules_mug_save(env: Env, base: int, mugger_level: int, victim_level: int) -> None:
    """The number a mugged victim needs on its save: base + mugger level - victim level or HD.

    \b
    Example:
      chronicle rules mug-save --base 12 --mugger-level 9 --victim-level 4
    """
    number = mug_save(base, mugger_level, victim_level)
    emit(env, {"save_number": number}, mug_save_told(base, mugger_level, victim_level))
