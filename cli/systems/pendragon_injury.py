"""`chronicle injure`, `first-aid`, `chirurgery`, `heal` and `rest` for PenDragon Pass
(docs/rulings.md, PenDragon Pass, Injury)."""

from __future__ import annotations

import click

from ...ledger.application.commands.pendragon_injury import Chirurgery, FirstAid, Heal, Injure, Rest
from ..commanding import executes
from ..options import common
from .pendragon_common import AT, HELP


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--damage", type=int, required=True, metavar="N", help="Damage of one blow, after armour.")
@click.option(
    "--save-roll",
    "save_roll",
    type=int,
    metavar="N",
    help="Taken so that scripts written for every system run; PenDragon Pass has no injury save,"
    " so it is ignored and not recorded.",
)
@click.option("--attacker", metavar="NAME", default="", help="Who dealt the blow, for the log.")
@click.option("--force", is_flag=True, help="Wound a dead character anyway.")
@AT
@common
@executes(Injure)
def injure() -> None:
    """One wound of --damage N on NAME, tracked on its own: a wound of CON or more is a major wound
    (needs Chirurgery), damage over SIZ a knockdown; at a quarter of hit points NAME falls
    unconscious (ruling unconscious_threshold), at 0 dies. A dead character is
    refused (exit 1) unless --force.

    \b
    Example:
      chronicle injure Vasana --damage 14
    """


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
@executes(FirstAid)
def first_aid() -> None:
    """First Aid on NAME's wound WOUND: once per wound, within a day of it; heals 1d3.
    Without --skill or --healer the aid is taken as successful. A dead character
    is refused (exit 1) unless --force.

    \b
    Example:
      chronicle first-aid Vasana 1 --healer Harrek --roll 8 --heal-roll 2
    """


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
@click.option("--force", is_flag=True, help="Heal a dead character anyway.")
@AT
@common
@executes(Heal)
def heal() -> None:
    """Magical healing of NAME's wound WOUND by --points N: once per wound. Waking an unconscious
    character ends its need for Chirurgery; a major wound's only with --heals-all or --regrows-limbs.

    A dead character is refused (exit 1) unless --force.

    \b
    Example:
      chronicle heal Vasana 1 --points 6
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--hours", type=int, metavar="H", help="Hours of rest.")
@click.option("--minutes", type=int, metavar="M", help="Minutes of rest.")
@click.option("--days", type=int, metavar="D", help="Days of rest (24 hours each).")
@click.option("--weeks", type=int, metavar="W", help="Weeks of rest (168 hours each): the Healing Rate a full week.")
@click.option("--interrupted", is_flag=True, help="A significant interruption: nothing heals.")
@click.option("--force", is_flag=True, help="Rest a dead character anyway.")
@common
@executes(Rest)
def rest() -> None:
    """Natural healing: NAME heals its Healing Rate, (STR + CON) // 10, per full week of rest, oldest
    wounds first; wounds awaiting Chirurgery do not heal on their own (standard Pendragon, as the text
    does not say). The rest lasts --hours, --minutes, --days or --weeks (exactly one). A rest that
    heals nothing is still recorded; a dead character's is refused (exit 1) unless --force.

    \b
    Example:
      chronicle rest Vasana --weeks 2
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--healer", metavar="NAME", help="Who operates; their chirurgery value is copied in (never NAME itself).")
@click.option("--skill", type=int, metavar="N", help="The healer's Chirurgery value, when the healer has no sheet.")
@click.option("--roll", type=int, metavar="N", help="The table's d20 for the healer's Chirurgery.")
@click.option("--damage-roll", "damage_roll", type=int, metavar="N", help="The table's d6 of a fumble's wound.")
@AT
@common
@executes(Chirurgery)
def chirurgery() -> None:
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
