"""PenDragon Pass commands (seed 004; RULINGS.md section 3): check, status award, increase, oath, geas,
feat, tactic, injure, first-aid, heal and winter. Each converts options to the domain's inputs, records
one event (winter: one per character and one on the campaign) and renders the result.

`rest` is not defined: PenDragon Pass has no natural-healing event yet, so `chronicle rest` in a
pendragon-pass campaign says it is not a command of the system (exit 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ...domain.errors import BadInput
from ...domain.pendragon import FOES, HONOURS, Checked, ExperienceRolled, FeatAttempted, IncreaseSpent, StatusAwarded
from ...domain.pendragon.checks import CheckInputs, ExperienceInputs
from ...domain.pendragon.feats import FeatInputs
from ...domain.pendragon.status import AwardInputs, IncreaseInputs
from ..actions import inputs
from ..context import Env
from ..options import common
from .pendragon_common import HELP, emit_told, resolve_on, table_roll, value_of
from .pendragon_injury import chirurgery, first_aid, heal, injure, rest
from .pendragon_oaths import geas, oath
from .pendragon_tactic import tactic
from .pendragon_winter import winter

if TYPE_CHECKING:
    from ...ledger.session import Session

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


# check --------------------------------------------------------------------------------------------


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
@click.pass_obj
def check(
    env: Env,
    name: str,
    skill: str,
    roll: int | None,
    modifier: int,
    opposed_by: str | None,
    opposed_value: int | None,
    opposed_roll: int | None,
    award_check: bool,
) -> None:
    """A d20 against NAME's SKILL (any statistic, trait, passion or skill), unopposed or opposed.

    Equal is a critical, under a success, 20 a fumble, over a failure; a value
    over 20 adds its excess to the roll. Opposed: a critical beats a success;
    two successes: the higher roll wins and the loser has a partial success.
    The opponent's value is copied from its sheet into the event.

    \b
    Example:
      chronicle check Vasana sword --roll 12 --opposed-by Harrek:sword --opposed-roll 9
    """
    if opposed_by and opposed_value is not None:
        raise BadInput("give --opposed-by NAME:SKILL or --opposed-value N, not both")
    if opposed_roll is not None and not opposed_by and opposed_value is None:
        raise BadInput("--opposed-roll needs --opposed-by NAME:SKILL or --opposed-value N")

    def decide(session: Session) -> Any:
        opponent, value = (None, opposed_value)
        if opposed_by:
            opponent, value, _ = value_of(session, opposed_by, "--opposed-by")
        given = inputs(
            CheckInputs, what=skill, modifier=modifier, opponent=opponent, opponent_value=value, award_check=award_check
        )
        table = {"check": table_roll(roll), "opponent": table_roll(opposed_roll)}
        return resolve_on(session, name, Checked, given, table, "check")

    emit_told(env, env.write(decide))


# status and increases ------------------------------------------------------------------------------


@click.group(context_settings=HELP)
def status() -> None:
    """PenDragon Pass Status (Glory): awards. Every full 1,000 earns one increase."""


@status.command("award", context_settings=HELP)
@click.argument("name")
@click.option("--foe", type=click.Choice(list(FOES)), help="A foe defeated (its Status value from the table).")
@click.option(
    "--honour", type=click.Choice(list(HONOURS)), help="A one-time honour; a second award of it is refused (exit 1)."
)
@click.option("--amount", type=int, metavar="N", help="An explicit amount (needs --reason).")
@click.option("--reason", metavar="TEXT", help="Why an explicit amount was awarded.")
@click.option("--leadership", type=int, metavar="PEOPLE", help="People led: 1 per full 100, at most 100.")
@click.option(
    "--magic-item", "magic_item", type=int, metavar="N", help="A flashy magic item: 1 to 10, as the table sets."
)
@click.option("--head", is_flag=True, help="+10%: took the enemy's head after a challenge.")
@click.option("--yoke", is_flag=True, help="+50%: fought balancing on a chariot yoke.")
@click.option("--missile", is_flag=True, help="-50%: bows, crossbows or slings were used.")
@common
@click.pass_obj
def award(
    env: Env,
    name: str,
    foe: str | None,
    honour: str | None,
    amount: int | None,
    reason: str | None,
    leadership: int | None,
    magic_item: int | None,
    head: bool,
    yoke: bool,
    missile: bool,
) -> None:
    """Award Status to NAME from exactly one source; --head/--yoke/--missile modify foes and amounts
    (ruling status_modifiers: additive or multiplicative).

    \b
    Example:
      chronicle status award Vasana --foe rune-master --head
    """
    given = inputs(
        AwardInputs,
        foe=foe,
        honour=honour,
        amount=amount,
        reason=reason,
        leadership_people=leadership,
        magic_item=magic_item,
        head=head,
        yoke=yoke,
        missile=missile,
    )
    emit_told(env, env.write(lambda session: resolve_on(session, name, StatusAwarded, given, command="status award")))


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("what")
@common
@click.pass_obj
def increase(env: Env, name: str, what: str) -> None:
    """Spend one pending increase of NAME: +1 to WHAT (a trait, passion, statistic or skill), even past
    normal limits; a trait's opposite falls by 1. Refused (exit 1) when none is pending.

    \b
    Example:
      chronicle increase Vasana valorous
    """
    given = inputs(IncreaseInputs, what=what)
    emit_told(env, env.write(lambda session: resolve_on(session, name, IncreaseSpent, given, command="increase")))


# feats ---------------------------------------------------------------------------------------------


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("what")
@click.option("--roll", type=int, metavar="N", help="The table's d20.")
@click.option("--describe", "description", metavar="TEXT", help="What the Feat is (default: 'a Feat of WHAT').")
@common
@click.pass_obj
def feat(env: Env, name: str, what: str, roll: int | None, description: str | None) -> None:
    """A Feat with a combat skill or physical statistic WHAT (never Riding): d20 at or under half the
    value (ruling feat_threshold) is a critical; anything else a fumble with knockdown.

    \b
    Example:
      chronicle feat Vasana sword --roll 6 --describe "leaps the wall of shields"
    """
    given = inputs(FeatInputs, what=what, description=description or f"a Feat of {what}")
    emit_told(
        env,
        env.write(
            lambda session: resolve_on(session, name, FeatAttempted, given, {"feat": table_roll(roll)}, command="feat")
        ),
    )


# experience outside winter -------------------------------------------------------------------------


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--dice", "given", metavar="CHECK=N,...", help="The table's d20s by check (sword=17,pow=4).")
@common
@click.pass_obj
def experience(env: Env, name: str, given: str | None) -> None:
    """Experience rolls for NAME's checks a month after an adventure (only under the ruling
    experience_timing=month_after_adventure; otherwise they wait for the Winter Phase): a d20 over the
    value, or a 20, raises it by 1, and a trait's opposite falls by 1. Dice the table does not give
    are rolled by the ledger.

    \b
    Example:
      chronicle experience Vasana --dice sword=17,pow=4
    """
    table = {f"experience:{check}": [faces] for check, faces in _keyed(given).items()}
    emit_told(
        env,
        env.write(
            lambda session: resolve_on(session, name, ExperienceRolled, ExperienceInputs(), table, command="experience")
        ),
    )


def _keyed(text: str | None) -> dict[str, int]:
    """`sword=17,pow=4` -> {"sword": 17, "pow": 4}: dice keyed by check, never by order."""
    found: dict[str, int] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        check, sep, face = part.partition("=")
        if not sep or not check.strip() or not face.strip().isdigit():
            raise BadInput(f"--dice takes CHECK=N pairs such as sword=17,pow=4, got {part.strip()!r}")
        found[check.strip()] = int(face)
    return found
