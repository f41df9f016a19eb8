"""AD&D 2E non-lethal combat commands (seed 003; RULINGS.md 2): injure, rest, attack, mug, grab, and the
`rules monster-strength` / `rules mug-save` queries. Each converts options to the domain's inputs,
records one event and renders the result."""

from __future__ import annotations

from typing import Any, get_args

import click

from ...domain.adnd2e import AttackInputs, Attacked, Injured, InjureInputs, MugInputs, Mugged, Rested, RestInputs
from ...domain.adnd2e.attacks import Maneuver, weapon_inputs
from ...domain.adnd2e.damage import Mode
from ...domain.errors import BadInput
from ..actions import inputs
from ..options import common, faces
from ..output import emit
from .adnd2e_common import adnd2e_character, hp_line, resolve_on
from .adnd2e_grab import grab

# Dispatched commands run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}

__all__ = ["injure", "rest", "attack", "mug", "grab", "rules_monster_strength", "rules_mug_save"]


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--damage", type=int, required=True, metavar="N", help="The rolled weapon damage (magic bonus included).")
@click.option("--mode", type=click.Choice(get_args(Mode)), required=True,
              help="lethal: all real; armed-nonlethal and subdual: half, half of it temporary; sap: 25% real.")
@click.option("--knockout-roll", type=int, metavar="N", help="Sap: the table's d100 knockout roll.")
@click.option("--knockout-dice", metavar="A,B", help="Sap: the table's 2d8 faces for the knockout's rounds.")
@click.option("--magic-bonus", type=int, metavar="N", help="Sap: the weapon's magic bonus, which a sap ignores.")
@click.option("--helpless", is_flag=True,
              help="Sap: the victim is asleep or magically held (10% a point, up to 80%) though the ledger does not say so.")
@common
@click.pass_obj
def injure(env: Any, name: str, damage: int, mode: str, knockout_roll: int | None, knockout_dice: str | None,
           magic_bonus: int | None, helpless: bool) -> None:
    """Apply the rolled weapon --damage to NAME, split into real and temporary damage by --mode.

    A sap also rolls the knockout chance: 5% a point of damage, at most 40%
    (10% and 80% against a sleeping or held victim); d100 at or under it knocks
    out for 2d8 rounds (ruling sap_knockout_rounds).

    \b
    Example:
      chronicle injure Guard --damage 7 --mode sap --knockout-roll 20 --knockout-dice 2,3
    """
    given = inputs(InjureInputs, damage=damage, mode=mode, magic_bonus=magic_bonus, helpless=helpless)
    table = {"knockout": None if knockout_roll is None else [knockout_roll], "knockout_rounds": faces(knockout_dice)}
    result = env.write(lambda session: resolve_on(session, name, Injured, given, table))
    emit(env, result, lambda: _injury_text(name, mode, result))


def _injury_text(name: str, mode: str, r: dict[str, Any]) -> str:
    parts = [f"{name} takes {r['damage']} {mode} damage: {r['real']} real + {r['temporary']} temporary."]
    if r["knockout_chance"] is not None:
        verdict = f"knocked out for {r['knockout_rounds']} rounds" if r["knocked_out"] else "not knocked out"
        parts.append(f"Knockout chance {r['knockout_chance']}%, rolled {r['knockout_roll']}: {verdict}"
                     + (" (and woken)." if r["woken"] else "."))
    parts.append(f"Now {hp_line(r['condition'])}.  [event {r['event']}]")
    return "\n".join(parts)


@click.command(context_settings=HELP)
@click.argument("name")
@click.option("--hours", type=int, metavar="H", help="Hours of rest (1 real hp a full day, ruling real_recovery).")
@click.option("--minutes", type=int, metavar="M", help="Minutes of rest (1 temporary hp a turn of 10, ruling temporary_recovery).")
@click.option("--interrupted", is_flag=True, help="The rest was interrupted: time passes, nothing heals.")
@common
@click.pass_obj
def rest(env: Any, name: str, hours: int | None, minutes: int | None, interrupted: bool) -> None:
    """Natural healing for NAME over --hours H or --minutes M (exactly one); recorded even if it heals nothing.

    \b
    Example:
      chronicle rest Brand --minutes 20
    """
    if (hours is None) == (minutes is None):
        raise BadInput("give exactly one of --hours H or --minutes M")
    given = inputs(RestInputs, hours=hours, minutes=minutes, interrupted=interrupted)
    result = env.write(lambda session: resolve_on(session, name, Rested, given))
    emit(env, result, lambda: (
        f"{name} rests {result['minutes']} minutes{' (interrupted)' if interrupted else ''}: healed "
        f"{result['temporary_healed']} temporary and {result['real_healed']} real hp.\n"
        f"Now {hp_line(result['condition'])}.  [event {result['event']}]"))


@click.command(context_settings=HELP)
@click.argument("attacker")
@click.argument("target")
@click.option("--maneuver", type=click.Choice(get_args(Maneuver)), default="normal", show_default=True,
              help="The kind of attack; called shots (sap, grab-*) add +1 to initiative.")
@click.option("--weapon", metavar="NAME",
              help="A weapon on ATTACKER's sheet, by name (none for bare hands); its kind, size and missile flag come from the sheet.")
@click.option("--missile", is_flag=True, help="The weapon is thrown: a missile attack (never a sap or a non-lethal one).")
@click.option("--roll", type=int, metavar="N", help="The table's d20 attack roll.")
@click.option("--thac0", type=int, metavar="N", help="The attacker's THAC0, if not on its sheet (else 20).")
@click.option("--wrestling-round", type=int, metavar="N", help="Round of the wrestling bout (after the first: small weapons only).")
@click.option("--defender-armed", is_flag=True, help="The target holds a weapon: against bare hands it strikes first at +4/+4.")
@click.option("--no-free-hand", "no_free_hand", is_flag=True, help="The attacker has no free hand (no grab).")
@common
@click.pass_obj
def attack(env: Any, attacker: str, target: str, maneuver: str, weapon: str | None, missile: bool,
           roll: int | None, thac0: int | None, wrestling_round: int | None, defender_armed: bool, no_free_hand: bool) -> None:
    """One attack roll by ATTACKER on TARGET with the maneuver's modifiers, recorded on TARGET.

    THAC0, height, class, whether the attacker is held and the --weapon are
    copied from ATTACKER's sheet, which lists its weapons as
    --stat 'weapons=club:blunt,small,damage=1d6;long sword:edged,damage=1d8'
    (each blunt, edged or piercing; missile; small, medium or large; damage=DICE; magic=N).
    A refused maneuver (a mace used non-lethally, a sap on a large victim,
    a missile sap, a mugging where no backstab is possible) exits 1.

    \b
    Example:
      chronicle attack Thief Guard --maneuver sap --weapon club --roll 17
    """

    def decide(session: Any) -> Any:
        striker = adnd2e_character(session, attacker, "attack")
        given = inputs(
            AttackInputs, attacker=attacker, maneuver=maneuver, **weapon_inputs(striker.sheet.wielded(weapon, attacker), missile),
            attacker_thac0=thac0 if thac0 is not None else striker.sheet.thac0, attacker_height=striker.sheet.height,
            attacker_held=striker.condition.held_by is not None, wrestling_round=wrestling_round,
            defender_armed=defender_armed, free_hand=not no_free_hand,
        )
        table = {"attack": None if roll is None else [roll]}
        return resolve_on(session, target, Attacked, given, table).then(lambda result: {"attacker": attacker, **result})

    result = env.write(decide)
    emit(env, result, lambda: _attack_text(attacker, target, maneuver, result))


def _attack_text(attacker: str, target: str, maneuver: str, r: dict[str, Any]) -> str:
    m = r["modifiers"]
    verdict = "hits" if r["hit"] else "misses"
    if r["roll"] is None:
        line = f"{attacker} {verdict} {target} automatically ({maneuver} on a helpless victim)."
    else:
        line = (f"{attacker} {verdict} {target} ({maneuver}): rolled {r['roll']} {m['to_hit']:+d} "
                f"against {r['needed']} (AC {m['target_ac']}).")
    notes = []
    if m["initiative"]:
        notes.append(f"initiative {m['initiative']:+d}")
    if m["defender_strikes_first"]:
        notes.append(f"{target} strikes first at {m['defender_to_hit']:+d} to hit and damage")
    return line + (f" ({'; '.join(notes)})" if notes else "") + f"  [event {r['event']}]"


@click.command(context_settings=HELP)
@click.argument("mugger")
@click.argument("victim")
@click.option("--save-number", type=int, required=True, metavar="S", help="The victim's base save vs petrification (1-20).")
@click.option("--save-roll", type=int, metavar="N", help="The table's d20 save roll.")
@click.option("--knockout-dice", metavar="A,B", help="The table's 2d8 faces for the knockout rounds (only if the save fails).")
@common
@click.pass_obj
def mug(env: Any, mugger: str, victim: str, save_number: int, save_roll: int | None, knockout_dice: str | None) -> None:
    """After a mugging hit: VICTIM saves vs petrification, the number raised by MUGGER's level minus VICTIM's level or HD.

    Refused (exit 1) where no backstab is allowed or against a victim more than
    twice the mugger's height. A failed save knocks out for 2d8 rounds.

    \b
    Example:
      chronicle mug Thief Ogre --save-number 12 --save-roll 16
    """

    def decide(session: Any) -> Any:
        thief = adnd2e_character(session, mugger, "mug")
        given = inputs(MugInputs, save_number=save_number, mugger=mugger, mugger_level=thief.sheet.rank,
                       mugger_height=thief.sheet.height)
        table = {"save": None if save_roll is None else [save_roll], "knockout_rounds": faces(knockout_dice)}
        return resolve_on(session, victim, Mugged, given, table).then(lambda result: {"mugger": mugger, **result})

    result = env.write(decide)

    def human() -> str:
        verdict = "saves" if result["saved"] else f"fails and is knocked out for {result['knockout_rounds']} rounds"
        return (f"{victim} needs {result['save_number']}, rolled {result['save_roll']}: {verdict}.\n"
                f"Now {hp_line(result['condition'])}.  [event {result['event']}]")

    emit(env, result, human)


@click.command("monster-strength")
@click.argument("attacks")
@click.option("--carrier", is_flag=True, help="Known for carrying (or made of such an animal): +8.")
@common
@click.pass_obj
def rules_monster_strength(env: Any, attacks: str, carrier: bool) -> None:
    """A monster's rough Strength from its ATTACKS damage: the largest maximum, +1 per attack beyond the first, +8 if a carrier.

    \b
    Example:
      chronicle rules monster-strength 2-8/4-10/4-10 --carrier --json
    """
    from ...domain.adnd2e import monster_strength

    strength = monster_strength(attacks, carrier)
    emit(env, {"strength": strength}, f"Strength {strength}")


@click.command("mug-save")
@click.option("--base", type=click.IntRange(1, 20), required=True, metavar="S", help="The victim's base save vs petrification.")
@click.option("--mugger-level", type=click.IntRange(min=0), required=True, metavar="L")
@click.option("--victim-level", type=click.IntRange(min=0), required=True, metavar="V", help="Level, or hit dice for a monster.")
@common
@click.pass_obj
def rules_mug_save(env: Any, base: int, mugger_level: int, victim_level: int) -> None:
    """The number a mugged victim needs on its save: base + mugger level - victim level or HD.

    \b
    Example:
      chronicle rules mug-save --base 12 --mugger-level 9 --victim-level 4
    """
    from ...domain.adnd2e import mug_save

    number = mug_save(base, mugger_level, victim_level)
    emit(env, {"save_number": number}, f"Save number {number}")
