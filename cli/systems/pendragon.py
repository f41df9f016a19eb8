"""PenDragon Pass commands (seed 004; docs/rulings.md, PenDragon Pass): check, status award, increase, oath, geas,
feat, tactic, injure, first-aid, chirurgery, heal, rest, experience and winter. Each is its options and
its help; `ledger/application/commands/pendragon*.py` hold what they do."""

from __future__ import annotations

import click

from ...domain.pendragon import FOES, HONOURS
from ...ledger.application.commands.pendragon import Check, Experience, Feat, Increase, StatusAward
from ..commanding import executes
from ..options import common
from .pendragon_common import HELP
from .pendragon_injury import chirurgery, first_aid, heal, injure, rest
from .pendragon_oaths import geas, oath
from .pendragon_tactic import tactic
from .pendragon_winter import winter

__all__ = [
    "check",
    "status",
    "increase",
    "oath",
    "geas",
    "feat",
    "tactic",
    "injure",
    "first_aid",
    "chirurgery",
    "heal",
    "rest",
    "winter",
    "experience",
]


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("skill")
@click.option("--roll", type=int, metavar="N", help="The table's d20 for NAME.")
@click.option("--modifier", type=int, default=0, metavar="M", help="Added to NAME's value (e.g. -5).")
@click.option(
    "--opposed-by", "opposed_by", metavar="NAME:SKILL", help="An opposed roll against another character's value."
)
@click.option(
    "--opposed-value",
    "opposed_value",
    type=int,
    metavar="N",
    help="An opposed roll against a value not on any sheet (an unregistered foe).",
)
@click.option("--opposed-roll", "opposed_roll", type=int, metavar="N", help="The table's d20 for the opponent.")
@click.option(
    "--award-check", "award_check", is_flag=True, help="A success earns an experience check (rolled in winter)."
)
@common
@executes(Check)
def check() -> None:
    """A d20 against NAME's SKILL (any statistic, trait, passion or skill), unopposed or opposed.

    Equal is a critical, under a success, 20 a fumble, over a failure; a value
    over 20 adds its excess to the roll. Opposed: a critical beats a success;
    two successes: the higher roll wins and the loser has a partial success.
    The opponent's value is copied from its sheet into the event.

    \b
    Example:
      chronicle check Vasana sword --roll 12 --opposed-by Harrek:sword --opposed-roll 9
    """


@click.group(context_settings=HELP)
def status() -> None:
    """PenDragon Pass Status (Glory): awards. Every full 1,000 earns one increase."""


@status.command("award", context_settings=HELP)
@click.argument("name")
@click.option("--foe", type=click.Choice(list(FOES)), help="A foe defeated (its Status value from the table).")
@click.option(
    "--honour", type=click.Choice(list(HONOURS)), help="A one-time honour; a second award of it is refused (exit 1)."
)
@click.option(
    "--amount", type=int, metavar="N", help="An explicit amount, at most 1,000,000 either way (needs --reason)."
)
@click.option("--reason", metavar="TEXT", help="Why an explicit amount was awarded.")
@click.option("--leadership", type=int, metavar="PEOPLE", help="People led: 1 per full 100, at most 100.")
@click.option(
    "--magic-item", "magic_item", type=int, metavar="N", help="A flashy magic item: 1 to 10, as the table sets."
)
@click.option("--head", is_flag=True, help="+10%: took the enemy's head after a challenge.")
@click.option("--yoke", is_flag=True, help="+50%: fought balancing on a chariot yoke.")
@click.option("--missile", is_flag=True, help="-50%: bows, crossbows or slings were used.")
@common
@executes(StatusAward)
def award() -> None:
    """Award Status to NAME from exactly one source; --head/--yoke/--missile modify foes and amounts
    (ruling status_modifiers: additive or multiplicative).

    \b
    Example:
      chronicle status award Vasana --foe rune-master --head
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("what")
@common
@executes(Increase)
def increase() -> None:
    """Spend one pending increase of NAME: +1 to WHAT (a trait, passion, statistic or skill), even past
    normal limits; a trait's opposite falls by 1. Refused (exit 1) when none is pending.

    \b
    Example:
      chronicle increase Vasana valorous
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("what")
@click.option("--roll", type=int, metavar="N", help="The table's d20.")
@click.option(
    "--describe", "description", required=True, metavar="TEXT", help="What the Feat is (always name and describe it)."
)
@common
@executes(Feat)
def feat() -> None:
    """A Feat with a combat skill or physical statistic WHAT (never Riding): d20 at or under half the
    value (ruling feat_threshold) is a critical; anything else a fumble with knockdown.

    A Feat is always named and described (--describe).

    \b
    Example:
      chronicle feat Vasana sword --roll 6 --describe "leaps the wall of shields"
    """


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--dice", "given", metavar="CHECK=N,...", help="The table's d20s by check (sword=17,pow=4).")
@common
@executes(Experience)
def experience() -> None:
    """Experience rolls for NAME's checks a month after an adventure (only under the ruling
    experience_timing=month_after_adventure; otherwise they wait for the Winter Phase): a d20 over the
    value, or a 20, raises it by 1, and a trait's opposite falls by 1. Dice the table does not give
    are rolled by the ledger.

    \b
    Example:
      chronicle experience Vasana --dice sword=17,pow=4
    """
