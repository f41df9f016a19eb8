"""Potestas commands (seed 000; RULINGS.md 1): injure, dying-save, exert, rest, attack, fall, and the
`rules fortitude-dc` / `rules falling` queries. Each converts options to the domain's inputs, records
one event (an attack: one for the attack and one per hit) and explains the result."""

from __future__ import annotations

from typing import Any

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
)
from ..actions import inputs
from ..options import common
from ..output import emit
from .potestas_attack import attack
from .potestas_common import (
    HELP,
    condition_line,
    d20,
    injury_context,
    injury_lines,
    potestas_character,
    record_on,
    save_table,
)

__all__ = ["injure", "dying_save", "exert", "rest", "attack", "fall", "rules_fortitude_dc", "rules_falling"]


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--damage", type=int, required=True, metavar="N", help="Damage before DR (energy riders included).")
@click.option("--nonlethal", is_flag=True, help="Nonlethal damage: a failed save is a nonlethal wound.")
@click.option("--type", "type_", metavar="TYPE[,TYPE...]",
              help="Damage type and qualities, comma-separated (slashing,magic): bludgeoning, piercing, slashing, "
                   "silver, cold_iron, adamantine, magic, fire, cold, acid, electricity, sonic (energy) or spell; "
                   "energy and spell ignore DR.")
@click.option("--save-roll", type=int, metavar="N", help="The table's d20 Fortitude save.")
@click.option("--force", is_flag=True, help="Injure a dead character or a destroyed object anyway.")
@common
@click.pass_obj
def injure(env: Any, name: str, damage: int, nonlethal: bool, type_: str | None, save_roll: int | None, force: bool) -> None:
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

    def decide(session: Any) -> Any:
        character = potestas_character(session, name, "injure")
        table, notes = save_table(session, character, Injured, given, save_roll, "save")
        result = record_on(session, character, Injured, given, table)
        context = injury_context(session, character, given)
        return result.then(lambda described: {**described, **context, "notes": notes})

    result = env.write(decide)
    emit(env, result, lambda: "\n".join(injury_lines(name, result)))


@click.command("dying-save", context_settings=HELP)
@click.argument("name")
@click.option("--roll", type=int, metavar="N", help="The table's d20.")
@click.option("--rounds", type=int, metavar="N",
              help="Rounds NAME lay unconscious before this one that no event shows (knocked out, or stable); "
                   "they add to the DC.")
@common
@click.pass_obj
def dying_save(env: Any, name: str, roll: int | None, rounds: int | None) -> None:
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

    def decide(session: Any) -> Any:
        character = potestas_character(session, name, "dying-save")
        return record_on(session, character, DyingSaveMade, given, table)

    result = env.write(decide)

    def human() -> str:
        r = result
        verdict = f"made by {r['margin']}" if r["margin"] >= 0 else f"failed by {-r['margin']}"
        natural = " (natural roll decides)" if r["roll"] in (1, 20) and r["success"] != (r["margin"] >= 0) else ""
        return (f"{name}'s dying save: rolled {r['roll']} + {r['bonus']} (Fort) - {r['penalty']} (wounds) = {r['total']} "
                f"vs DC {r['dc']}: {verdict}{natural}. Now {r['result']}.\n"
                f"Condition: {condition_line(r['before'])} -> {condition_line(r['condition'])}.  "
                f"[event {r['event']}, version {r['version']}]")

    emit(env, result, human)


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--action", metavar="TEXT", help="What was done: a standard action, moving over half speed, ...")
@common
@click.pass_obj
def exert(env: Any, name: str, action: str | None) -> None:
    """Record a strenuous action by NAME: disabled becomes dying, staggered
    becomes unconscious; otherwise nothing changes. Refused (exit 1) for an
    unconscious character or an object.

    \b
    Example:
      chronicle exert Brand --action "charged the ogre"
    """
    given = inputs(ExertionInputs, action=action)
    result = env.write(lambda session: record_on(session, potestas_character(session, name, "exert"), Exerted, given))
    emit(env, result, lambda: (
        f"{name}: {given.action}; " + (f"now {', '.join(result['worsened'])}." if result["worsened"] else "no worse for it.")
        + f"\nCondition: {condition_line(result['before'])} -> {condition_line(result['condition'])}.  "
        f"[event {result['event']}, version {result['version']}]"))


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--hours", type=int, metavar="H", help="Hours of rest: 1 wound per 8 hours, 3 per full day.")
@click.option("--minutes", type=int, metavar="M", help="Minutes of rest: 1 nonlethal wound per 20 minutes, 3 per full hour.")
@click.option("--interrupted", is_flag=True, help="The rest was interrupted: time passes, nothing heals.")
@common
@click.pass_obj
def rest(env: Any, name: str, hours: int | None, minutes: int | None, interrupted: bool) -> None:
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
    result = env.write(lambda session: record_on(session, potestas_character(session, name, "rest"), Rested, given))
    emit(env, result, lambda: (
        f"{name} rests {result['minutes']} minutes{' (interrupted)' if interrupted else ''}: healed "
        f"{result['wounds_healed']} wound(s) and {result['nonlethal_healed']} nonlethal wound(s).\n"
        f"Condition: {condition_line(result['before'])} -> {condition_line(result['condition'])}.  "
        f"[event {result['event']}, version {result['version']}]"))


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--feet", type=int, required=True, metavar="N", help="Height of the fall in feet.")
@click.option("--save-roll", type=int, metavar="N", help="The table's d20 Fortitude save.")
@click.option("--force", is_flag=True, help="Let a dead character or destroyed object fall anyway.")
@common
@click.pass_obj
def fall(env: Any, name: str, feet: int, save_roll: int | None, force: bool) -> None:
    """NAME falls N feet: 4 bludgeoning damage per full 5 ft/s of impact
    velocity, min(sqrt(70 * feet), 210), then the injury rules (DR, save).
    A --save-roll given when no damage gets through is ignored, with a note.

    \b
    Example:
      chronicle fall Brand --feet 30 --save-roll 12
    """
    given = inputs(FallInputs, feet=feet, force=force)

    def decide(session: Any) -> dict[str, Any]:
        character = potestas_character(session, name, "fall")
        table, notes = save_table(session, character, Fell, given, save_roll, "save")
        result = record_on(session, character, Fell, given, table)()  # its damage is the blow's
        blow = InjuryInputs(damage=result["fall"]["damage"], type="bludgeoning", force=force)
        return {**result, **result["fall"], **result["injury"], **injury_context(session, character, blow), "notes": notes,
                "condition": result["condition"], "event": result["event"], "version": result["version"]}

    result = env.write(decide)
    emit(env, result, lambda: "\n".join([
        f"{name} falls {result['feet']} ft: impact {result['velocity']} ft/s, {result['hits']} x 4 = "
        f"{result['damage']} bludgeoning damage.", *injury_lines(name, result)[1:]]))


@click.command("fortitude-dc", context_settings={"ignore_unknown_options": True})
@click.argument("damage", type=int)
@common
@click.pass_obj
def rules_fortitude_dc(env: Any, damage: int) -> None:
    """The injury save DC for DAMAGE left after DR: 15 + damage // 5.

    \b
    Example:
      chronicle rules fortitude-dc 12 --json
    """
    from ...domain.potestas import fortitude_dc

    dc = fortitude_dc(damage)
    emit(env, {"dc": dc}, f"DC {dc} = 15 + {damage} // 5")


@click.command("falling", context_settings={"ignore_unknown_options": True})
@click.argument("feet", type=int)
@common
@click.pass_obj
def rules_falling(env: Any, feet: int) -> None:
    """Impact velocity, hits and damage of a FEET fall: velocity =
    min(sqrt(70 * feet), 210) ft/s, hits = velocity // 5, damage = 4 * hits.

    \b
    Example:
      chronicle rules falling 630 --json
    """
    from ...domain.potestas import falling, minimum_fall

    drop = falling(feet)
    data = {"feet": drop.feet, "velocity": drop.velocity, "hits": drop.hits, "damage": drop.damage}
    following = f"; {drop.hits + 1} hits from {minimum_fall(drop.hits + 1)} ft" if drop.hits < 42 else " (terminal velocity)"
    emit(env, data, f"{feet} ft: {drop.velocity} ft/s, {drop.hits} hits, {drop.damage} damage{following}")
