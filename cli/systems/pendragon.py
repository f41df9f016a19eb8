"""PenDragon Pass commands (seed 004; RULINGS.md section 3): check, status award, increase, oath, geas,
feat, tactic, injure, first-aid, heal and winter. Each converts options to the domain's inputs, records
one event (winter: one per character and one on the campaign) and renders the result.

`rest` is not defined: PenDragon Pass has no natural-healing event yet, so `chronicle rest` in a
pendragon-pass campaign says it is not a command of the system (exit 2).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import click

from ...domain.errors import BadInput
from ...domain.pendragon import (FOES, HONOURS, Checked, FeatAttempted, FirstAidGiven, GeasBroken, GeasTaken,
                                 IncreaseSpent, Injured, MagicallyHealed, OathBroken, OathFulfilled, OathSworn,
                                 StatusAwarded)
from ...domain.pendragon.checks import CheckInputs
from ...domain.pendragon.feats import FeatInputs
from ...domain.pendragon.injury import FirstAidInputs, InjureInputs, MagicHealInputs
from ...domain.pendragon.oaths import BreakGeasInputs, BreakOathInputs, FulfilInputs, GeasInputs, SwearInputs
from ...domain.pendragon.status import AwardInputs, IncreaseInputs
from ..actions import inputs
from ..options import common
from ..output import emit
from .pendragon_common import HELP, now, resolve_on, roll_text, status_line, table_roll, value_of
from .pendragon_tactic import tactic
from .pendragon_winter import winter

__all__ = ["check", "status", "increase", "oath", "geas", "feat", "tactic", "injure", "first_aid", "heal", "winter"]


def _when(text: str | None) -> datetime:
    """`--at` (ISO-8601; UTC when no zone is given), else now."""
    if text is None:
        return now()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(f"--at takes an ISO-8601 time such as 1621-03-01T12:00, got {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


AT = click.option("--at", metavar="TIME", help="When it happened (ISO-8601), for the First Aid and healing windows; default now.")


# check --------------------------------------------------------------------------------------------

@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("skill")
@click.option("--roll", type=int, metavar="N", help="The table's d20 for NAME.")
@click.option("--modifier", type=int, default=0, metavar="M", help="Added to NAME's value (e.g. -5).")
@click.option("--opposed-by", "opposed_by", metavar="NAME:SKILL", help="An opposed roll against another character's value.")
@click.option("--opposed-value", "opposed_value", type=int, metavar="N",
              help="An opposed roll against a value not on any sheet (an unregistered foe).")
@click.option("--opposed-roll", "opposed_roll", type=int, metavar="N", help="The table's d20 for the opponent.")
@click.option("--award-check", "award_check", is_flag=True, help="A success earns an experience check (rolled in winter).")
@common
@click.pass_obj
def check(env: Any, name: str, skill: str, roll: int | None, modifier: int, opposed_by: str | None,
          opposed_value: int | None, opposed_roll: int | None, award_check: bool) -> None:
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

    def decide(session: Any) -> dict[str, Any]:
        opponent, value = (None, opposed_value)
        if opposed_by:
            opponent, value, _ = value_of(session, opposed_by, "--opposed-by")
        given = inputs(CheckInputs, what=skill, modifier=modifier, opponent=opponent, opponent_value=value,
                       award_check=award_check)
        table = {"check": table_roll(roll), "opponent": table_roll(opposed_roll)}
        return resolve_on(session, name, Checked, given, table, "check")

    result = env.write(decide)

    def human() -> str:
        line = f"{name} {skill}: {roll_text(result['roll'])}"
        if result["opponent_roll"]:
            verdict = "tie" if result["tie"] else {"self": f"{name} wins", "opponent": "the opponent wins",
                                                   "none": "nobody wins"}[result["winner"]]
            line += f"; opponent {roll_text(result['opponent_roll'])}: {verdict}"
        checked = "  (experience check)" if result["checked"] else ""
        return f"{line}.{checked}  [event {result['event']}]"

    emit(env, result, human)


# status and increases ------------------------------------------------------------------------------

@click.group(context_settings=HELP)
def status() -> None:
    """PenDragon Pass Status (Glory): awards. Every full 1,000 earns one increase."""


@status.command("award", context_settings=HELP)
@click.argument("name")
@click.option("--foe", type=click.Choice(list(FOES)), help="A foe defeated (its Status value from the table).")
@click.option("--honour", type=click.Choice(list(HONOURS)), help="A one-time honour; a second award of it is refused (exit 1).")
@click.option("--amount", type=int, metavar="N", help="An explicit amount (needs --reason).")
@click.option("--reason", metavar="TEXT", help="Why an explicit amount was awarded.")
@click.option("--leadership", type=int, metavar="PEOPLE", help="People led: 1 per full 100, at most 100.")
@click.option("--magic-item", "magic_item", type=int, metavar="N", help="A flashy magic item: 1 to 10, as the table sets.")
@click.option("--head", is_flag=True, help="+10%: took the enemy's head after a challenge.")
@click.option("--yoke", is_flag=True, help="+50%: fought balancing on a chariot yoke.")
@click.option("--missile", is_flag=True, help="-50%: bows, crossbows or slings were used.")
@common
@click.pass_obj
def award(env: Any, name: str, foe: str | None, honour: str | None, amount: int | None, reason: str | None,
          leadership: int | None, magic_item: int | None, head: bool, yoke: bool, missile: bool) -> None:
    """Award Status to NAME from exactly one source; --head/--yoke/--missile modify foes and amounts
    (ruling status_modifiers: additive or multiplicative).

    \b
    Example:
      chronicle status award Vasana --foe rune-master --head
    """
    given = inputs(AwardInputs, foe=foe, honour=honour, amount=amount, reason=reason, leadership_people=leadership,
                   magic_item=magic_item, head=head, yoke=yoke, missile=missile)
    result = env.write(lambda session: resolve_on(session, name, StatusAwarded, given, command="status award"))
    emit(env, result, lambda: (f"{name} gains {result['amount']} Status ({result['source']}, base {result['base']}"
                               + (f", {'+'.join(result['modifiers'])}" if result["modifiers"] else "") + "). "
                               + status_line(result)))


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("what")
@common
@click.pass_obj
def increase(env: Any, name: str, what: str) -> None:
    """Spend one pending increase of NAME: +1 to WHAT (a trait, passion, statistic or skill), even past
    normal limits; a trait's opposite falls by 1. Refused (exit 1) when none is pending.

    \b
    Example:
      chronicle increase Vasana valorous
    """
    given = inputs(IncreaseInputs, what=what)
    result = env.write(lambda session: resolve_on(session, name, IncreaseSpent, given, command="increase"))
    emit(env, result, lambda: f"{name}: {what} {result['from_value']} -> {result['to_value']}. " + status_line(result))


# oaths and geasa -----------------------------------------------------------------------------------

@click.group(context_settings=HELP)
def oath() -> None:
    """Oaths: swear, fulfil (Status as the table sets) or break (Honor -1, or d6 when grave)."""


@oath.command("swear", context_settings=HELP)
@click.argument("name")
@click.argument("text")
@click.option("--id", "oath_id", metavar="ID", help="A short id for the oath (default oath-N).")
@common
@click.pass_obj
def swear(env: Any, name: str, text: str, oath_id: str | None) -> None:
    """NAME swears the oath TEXT; later commands name it by its id or its text.

    \b
    Example:
      chronicle oath swear Vasana "avenge my father"
    """
    given = inputs(SwearInputs, text=text, id=oath_id)
    result = env.write(lambda session: resolve_on(session, name, OathSworn, given, command="oath swear"))
    emit(env, result, lambda: f"{name} swears {result['id']}: {text}.  [event {result['event']}]")


@oath.command("fulfil", context_settings=HELP)
@click.argument("name")
@click.argument("oath_ref", metavar="OATH")
@click.option("--status", "status_", type=int, required=True, metavar="N", help="The Status the table sets (0 for an oath of no weight).")
@common
@click.pass_obj
def fulfil(env: Any, name: str, oath_ref: str, status_: int) -> None:
    """NAME fulfils the open oath OATH (id or text) and gains --status N.

    \b
    Example:
      chronicle oath fulfil Vasana oath-1 --status 100
    """
    given = inputs(FulfilInputs, oath=oath_ref, status=status_)
    result = env.write(lambda session: resolve_on(session, name, OathFulfilled, given, command="oath fulfil"))
    emit(env, result, lambda: f"{name} fulfils {result['id']}: +{result['status_gained']} Status. "
                              + status_line(result))


@oath.command("break", context_settings=HELP)
@click.argument("name")
@click.argument("oath_ref", metavar="OATH")
@click.option("--grave", is_flag=True, help="The table rules the failure grave: d6 Honor instead of 1.")
@click.option("--honor-roll", "honor_roll", type=int, metavar="N", help="The table's d6 Honor loss (grave only).")
@common
@click.pass_obj
def break_oath(env: Any, name: str, oath_ref: str, grave: bool, honor_roll: int | None) -> None:
    """NAME breaks the open oath OATH (id or text): Honor -1, or -d6 with --grave.

    \b
    Example:
      chronicle oath break Vasana oath-1 --grave --honor-roll 4
    """
    if honor_roll is not None and not grave:
        raise BadInput("--honor-roll is the d6 of a grave failure: add --grave")
    given = inputs(BreakOathInputs, oath=oath_ref, grave=grave)
    result = env.write(lambda session: resolve_on(session, name, OathBroken, given, {"honor_loss": table_roll(honor_roll)},
                                                  command="oath break"))
    emit(env, result, lambda: _honor_text(name, result))


def _honor_text(name: str, result: dict[str, Any]) -> str:
    gained = f", {result['status_gained']:+d} Status" if result["status_gained"] else ""
    return (f"{name} breaks {result['id']}: Honor {result['honor_from']} -> {result['honor_to']}{gained}. "
            + status_line(result))


@click.group(context_settings=HELP)
def geas() -> None:
    """Geasa: take one (+5 Status each winter it is kept) or break it (+10 Status, -10 if a clan
    geas, and -d6 Honor)."""


@geas.command("take", context_settings=HELP)
@click.argument("name")
@click.argument("text")
@click.option("--clan", is_flag=True, help="A clan geas: breaking it costs 10 Status instead of gaining 10.")
@click.option("--id", "geas_id", metavar="ID", help="A short id for the geas (default geas-N).")
@common
@click.pass_obj
def take(env: Any, name: str, text: str, clan: bool, geas_id: str | None) -> None:
    """NAME takes the geas TEXT; later commands name it by its id or its text.

    \b
    Example:
      chronicle geas take Vasana "never eat goose" --clan
    """
    given = inputs(GeasInputs, text=text, clan=clan, id=geas_id)
    result = env.write(lambda session: resolve_on(session, name, GeasTaken, given, command="geas take"))
    emit(env, result, lambda: f"{name} takes {result['id']}{' (clan)' if clan else ''}: {text}.  [event {result['event']}]")


@geas.command("break", context_settings=HELP)
@click.argument("name")
@click.argument("geas_ref", metavar="GEAS")
@click.option("--honor-roll", "honor_roll", type=int, metavar="N", help="The table's d6 Honor loss.")
@common
@click.pass_obj
def break_geas(env: Any, name: str, geas_ref: str, honor_roll: int | None) -> None:
    """NAME breaks the geas GEAS (id or text): +10 Status (-10 for a clan geas) and -d6 Honor.

    \b
    Example:
      chronicle geas break Vasana geas-1 --honor-roll 3
    """
    given = inputs(BreakGeasInputs, geas=geas_ref)
    result = env.write(lambda session: resolve_on(session, name, GeasBroken, given, {"honor_loss": table_roll(honor_roll)},
                                                  command="geas break"))
    emit(env, result, lambda: _honor_text(name, result))


# feats ---------------------------------------------------------------------------------------------

@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("what")
@click.option("--roll", type=int, metavar="N", help="The table's d20.")
@click.option("--describe", "description", metavar="TEXT", help="What the Feat is (default: 'a Feat of WHAT').")
@common
@click.pass_obj
def feat(env: Any, name: str, what: str, roll: int | None, description: str | None) -> None:
    """A Feat with a combat skill or physical statistic WHAT (never Riding): d20 at or under half the
    value (ruling feat_threshold) is a critical; anything else a fumble with knockdown.

    \b
    Example:
      chronicle feat Vasana sword --roll 6 --describe "leaps the wall of shields"
    """
    given = inputs(FeatInputs, what=what, description=description or f"a Feat of {what}")
    result = env.write(lambda session: resolve_on(session, name, FeatAttempted, given, {"feat": table_roll(roll)},
                                                  command="feat"))
    emit(env, result, lambda: (f"{name}'s Feat of {what}: rolled {result['roll']} against {result['value']} // 2: "
                               + ("done (critical)." if result["result"] == "critical" else "fumbled, knocked down.")
                               + f"  [event {result['event']}]"))


# injury and healing --------------------------------------------------------------------------------

@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--damage", type=int, required=True, metavar="N", help="Damage of one blow, after armour.")
@click.option("--save-roll", "save_roll", type=int, metavar="N",
              help="Accepted for the contract's common form; PenDragon Pass has no injury save, so it is ignored and not recorded.")
@AT
@common
@click.pass_obj
def injure(env: Any, name: str, damage: int, save_roll: int | None, at: str | None) -> None:
    """One wound of --damage N on NAME, tracked on its own: a wound of CON or more is a major wound
    (needs Chirurgery), damage over SIZ a knockdown; at a quarter of hit points NAME falls
    unconscious (ruling unconscious_threshold), at 0 dies.

    \b
    Example:
      chronicle injure Vasana --damage 14
    """
    given = inputs(InjureInputs, damage=damage, at=_when(at))
    result = env.write(lambda session: resolve_on(session, name, Injured, given, command="injure"))
    flags = [f for f in ("major", "knockdown", "unconscious", "dead") if result[f]]
    emit(env, result, lambda: (f"{name} takes wound {result['wound']} ({damage}): {result['hp']}/"
                               f"{result['condition']['max_hp']} hp" + (f", {', '.join(flags)}" if flags else "")
                               + f".  [event {result['event']}]"))


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("wound", type=int)
@click.option("--roll", type=int, metavar="N", help="The table's d20 for the healer's First Aid (needs --skill or --healer).")
@click.option("--skill", type=int, metavar="N", help="The healer's First Aid value: a failed roll heals nothing.")
@click.option("--healer", metavar="NAME", help="The healer, whose first_aid value is copied in (instead of --skill).")
@click.option("--heal-roll", "heal_roll", type=int, metavar="N", help="The table's d3 of healing.")
@AT
@common
@click.pass_obj
def first_aid(env: Any, name: str, wound: int, roll: int | None, skill: int | None, healer: str | None,
              heal_roll: int | None, at: str | None) -> None:
    """First Aid on NAME's wound WOUND: once per wound, within a day of it; heals 1d3.
    Without --skill or --healer the aid is taken as successful.

    \b
    Example:
      chronicle first-aid Vasana 1 --healer Harrek --roll 8 --heal-roll 2
    """
    if skill is not None and healer:
        raise BadInput("give --skill N or --healer NAME, not both")
    if roll is not None and skill is None and not healer:
        raise BadInput("--roll is the healer's First Aid roll: give --skill N or --healer NAME")

    def decide(session: Any) -> dict[str, Any]:
        value = skill
        if healer:
            _, value, _ = value_of(session, f"{healer}:first_aid", "--healer")
        given = inputs(FirstAidInputs, wound=wound, at=_when(at), skill=value)
        return resolve_on(session, name, FirstAidGiven, given, {"check": table_roll(roll), "heal": table_roll(heal_roll)},
                          command="first-aid")

    result = env.write(decide)
    emit(env, result, lambda: (f"First Aid on {name}'s wound {wound}"
                               + (f" ({roll_text(result['roll'])})" if result["roll"] else "")
                               + f": heals {result['healed']}, now {result['hp']} hp.  [event {result['event']}]"))


@click.command(context_settings=HELP)
@click.argument("name")
@click.argument("wound", type=int)
@click.option("--points", type=int, required=True, metavar="N", help="What the spell heals.")
@click.option("--heals-all", "heals_all", is_flag=True, help="The spell heals all damage (clears a major wound's need for Chirurgery).")
@click.option("--regrows-limbs", "regrows_limbs", is_flag=True, help="The spell regrows limbs (clears a major wound's need for Chirurgery).")
@click.option("--window-hours", "window_hours", type=int, default=1, show_default=True, metavar="H",
              help="The spell heals only wounds at most H hours old.")
@click.option("--any-age", "any_age", is_flag=True, help="The spell heals wounds of any age.")
@AT
@common
@click.pass_obj
def heal(env: Any, name: str, wound: int, points: int, heals_all: bool, regrows_limbs: bool, window_hours: int,
         any_age: bool, at: str | None) -> None:
    """Magical healing of NAME's wound WOUND by --points N: once per wound. Waking an unconscious
    character ends its need for Chirurgery; a major wound's only with --heals-all or --regrows-limbs.

    \b
    Example:
      chronicle heal Vasana 1 --points 6
    """
    given = inputs(MagicHealInputs, wound=wound, points=points, at=_when(at), heals_all=heals_all,
                   regrows_limbs=regrows_limbs, window_hours=window_hours)
    if any_age:
        given = given.model_copy(update={"window_hours": None})
    result = env.write(lambda session: resolve_on(session, name, MagicallyHealed, given, command="heal"))
    emit(env, result, lambda: (f"Magic heals {result['healed']} of {name}'s wound {wound}: now {result['hp']} hp"
                               + (", awake" if not result["unconscious"] else "") + f".  [event {result['event']}]"))

