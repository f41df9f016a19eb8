"""`chronicle tactic NAME TACTIC ...`: the sixteen special tactics and weapon cases as one recorded
`TacticResolved` (docs/rulings.md, PenDragon Pass, Feats, tactics, weapons)."""

from __future__ import annotations

import click

from ...ledger.application.commands.pendragon_tactic import MODELS, Tactic
from ..commanding import executes
from ..options import common
from .pendragon_common import HELP


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("tactic", metavar="TACTIC", type=click.Choice(list(MODELS)))
@click.option("--skill", metavar="SKILL", help="NAME's combat skill (the parrying skill for special-parry).")
@click.option("--modifier", type=int, metavar="M", help="Added to NAME's skill.")
@click.option(
    "--opponent",
    "opponents",
    multiple=True,
    metavar="NAME:SKILL",
    help="The opposing character and skill, value copied from its sheet (repeat for multiple-opponents).",
)
@click.option(
    "--opponent-value",
    "opponent_values",
    type=int,
    multiple=True,
    metavar="N",
    help="An opposing value not on any sheet (repeatable).",
)
@click.option("--opponent-modifier", "opponent_modifier", type=int, metavar="M", help="Added to the opponent's value.")
@click.option("--damage", metavar="NOTATION", help="break-shield, disarm: the weapon's damage dice (e.g. 4d6).")
@click.option(
    "--small-weapon", "small_weapon", is_flag=True, help="break-shield: a dagger or other small weapon (refused)."
)
@click.option(
    "--parry-armour", "parry_armour", type=int, metavar="N", help="break-shield: the shield's parry armour (default 6)."
)
@click.option(
    "--opponent-str",
    "opponent_str",
    type=int,
    metavar="N",
    help="disarm: the foe's STR (default: from --opponent's sheet).",
)
@click.option(
    "--spell-skill", "spell_skill", metavar="SKILL", help="spell-with-attack: the value the spell is cast with."
)
@click.option("--defence", type=int, metavar="N", help="dodge-and-fight: how much of the skill goes into defence.")
@click.option("--side", type=click.Choice(["holder", "facing"]), help="hold-off: NAME holds the spear, or faces it.")
@click.option("--released", is_flag=True, help="hold-off: the attacker is no longer held off (no -3).")
@click.option("--spear-value", "spear_value", type=int, metavar="N", help="formation: the second rank's spear value.")
@click.option(
    "--shield-value", "shield_value", type=int, metavar="N", help="formation: the first rank's Battle + Defense value."
)
@click.option(
    "--spell-points",
    "spell_points",
    type=int,
    metavar="N",
    help="spell-weapon-fumble, sword-ties-magic-weapon: spirit magic points.",
)
@click.option(
    "--rune-points", "rune_points", type=int, metavar="N", help="... rune magic and enchantment points (count double)."
)
@click.option("--metal", type=click.Choice(["iron", "bronze"]), help="sword-clash: NAME's sword.")
@click.option(
    "--opponent-metal", "opponent_metal", type=click.Choice(["iron", "bronze"]), help="sword-clash: the other sword."
)
@click.option(
    "--weapon", type=click.Choice(["main-gauche", "quarterstaff"]), help="special-parry: the parrying weapon."
)
@click.option("--against-sword", "against_sword", is_flag=True, help="special-parry: the attacker uses a sword.")
@click.option("--roll", metavar="N[,N...]", help='The table\'s d20 for NAME ("check"; several for multiple-opponents).')
@click.option("--opponent-roll", "opponent_roll", metavar="N[,N...]", help="The table's d20 for the opponent(s).")
@click.option(
    "--dice",
    "dice",
    multiple=True,
    metavar="PURPOSE=FACES",
    help="Other table dice by purpose: damage, distance, great_blow, flurry, spell, attack, spear, shield,"
    " weapon_save.",
)
@common
@executes(Tactic)
def tactic() -> None:
    """Resolve one special TACTIC for NAME and record it (one event on NAME).

    Tactics: break-shield and disarm (-5; damage vs parry armour 6 or the foe's
    STR), great-blow (-5, +1d6 on a win), flurry (a critical allows a second
    attack), multiple-opponents (-5 per extra), spell-with-attack (-5 to NAME,
    +5 to the opponent: ruling spell_attack_modifier), dodge (DEX),
    dodge-and-fight, hold-off (-3 until the attacker wins), large-shield (-3;
    +3 armour on a partial success), formation, missile-against-shield (-5),
    spell-weapon-fumble, sword-ties-magic-weapon, sword-clash (iron breaks
    bronze on a tie), special-parry (main gauche or quarterstaff stop 4 on a
    partial success). Options a tactic does not take are bad input (exit 2).

    \b
    Example:
      chronicle tactic Vasana great-blow --skill sword --opponent Harrek:sword --roll 12 --opponent-roll 15
    """
