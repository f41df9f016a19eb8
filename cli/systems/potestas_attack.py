"""`chronicle attack ATTACKER TARGET` for Potestas: one Attacked event on the target, then one Injured
event per hit, all saved together (RULINGS.md 1, Attack, Full attack options, Damage, Injury)."""

from __future__ import annotations

from typing import Any

import click

from ...domain.dice import Dice
from ...domain.errors import BadInput, Refusal
from ...domain.potestas import AttackInputs, Attacked, Injured, choose_weapons
from ..actions import inputs
from ..options import common, faces
from ..output import emit
from .potestas_common import HELP, condition_line, d20, injury_context, injury_lines, potestas_character, record_on, save_table

# flag option -> AttackInputs field (declared before rolling; any combination)
FLAGS = {
    "hurried": "Hurried: -4 (-2 with --rapid); a hit hits twice.",
    "rapid": "Rapid Shot, Rapid Strike or Haste: hurried at -2.",
    "iterative": "Iterative: one more hit per full 5 the roll beats the target by (ruling iterative_cap).",
    "multi_weapon_fighting": "Feat Multi-Weapon Fighting: multi-weapon at -2/-4, not -4/-6.",
    "weapon_group_unarmed": "Feat Weapon Group (Unarmed Strikes): lethal unarmed strikes at no -4, no provoking.",
    "flanking": "Flanking: +2 attack.",
    "flanker_ignored": "The target ignores this flanker: no +2, the target loses Dex and provokes.",
    "squeezing": "The attacker shares a square: -4 attack.",
    "target_squeezing": "The target shares a square: -4 defence.",
    "soft_cover": "The target has soft cover: +4 defence against ranged attacks only.",
    "target_armed": "The target is armed: unarmed attacks provoke.",
    "target_helpless": "The target is helpless for reasons the ledger does not show (bound, paralysed).",
    "coup_de_grace": "Coup de grace on a helpless target: an automatic critical, the save one degree worse.",
}
NUMBERS = {
    "range_penalty": "Range penalty for ranged weapons (0 or less).",
    "bonus_damage": "Sneak attack and the like: not multiplied on a critical.",
    "energy_damage": "Energy dealt with the blow: not multiplied, ignores DR.",
}


def _options(command: Any) -> Any:
    for field, text in reversed(NUMBERS.items()):
        command = click.option(f"--{field.replace('_', '-')}", field, type=int, metavar="N", help=text)(command)
    for field, text in reversed(FLAGS.items()):
        command = click.option(f"--{field.replace('_', '-')}", field, is_flag=True, help=text)(command)
    return command


@click.command(context_settings=HELP)
@click.argument("attacker")
@click.argument("target")
@click.option("--weapon", "weapons", multiple=True, metavar="NAME|SPEC",
              help="A weapon on ATTACKER's sheet by NAME, or a full SPEC name:attack=N,damage=D,enhancement=N,"
                   "threat=N,multiplier=N,types=a+b plus flags light, two_handed, ranged, thrown (a ranged attack "
                   "that adds Str), unarmed, nonlethal. Default: the sheet's first weapon. Two or more only "
                   "with --multi-weapon.")
@click.option("--roll", type=int, metavar="N", help="The table's d20 attack roll.")
@click.option("--confirm-roll", type=int, metavar="N", help="The table's d20 confirmation roll (needs --roll).")
@click.option("--dice", metavar="FACES", help="The table's damage dice faces, hit by hit and weapon by weapon (needs --roll).")
@click.option("--save-roll", "save_rolls", type=int, multiple=True, metavar="N",
              help="The table's d20 injury save; repeat for hit 1, 2, ... (extras are ignored, with a note).")
@click.option("--multi-weapon", is_flag=True,
              help="Declare a multi-weapon attack: with every weapon named, or every weapon on the sheet if none is.")
@click.option("--nonlethal/--lethal", "nonlethal", default=None, help="Deal nonlethal (lethal) damage; default: the weapons' usual type.")
@_options
@click.option("--force", is_flag=True, help="Attack a dead character or destroyed object anyway.")
@common
@click.pass_obj
def attack(env: Any, attacker: str, target: str, weapons: tuple[str, ...], roll: int | None, confirm_roll: int | None,
           dice: str | None, save_rolls: tuple[int, ...], multi_weapon: bool, nonlethal: bool | None, force: bool,
           **options: Any) -> None:
    """ATTACKER attacks TARGET: d20 + attack bonus >= 10 + defence, with the
    full-attack options declared. The attack is recorded on TARGET, then each
    hit as its own injury (DR and a save each). ATTACKER's BAB, Str, Dex and
    size are copied into the event. Weapons: each --weapon NAME is the
    sheet's weapon of that name (a SPEC with `:` stands alone); without
    --weapon, the sheet's first weapon, or all of them with --multi-weapon.

    Table rolls the rules do not ask for (a --confirm-roll without a threat,
    --save-roll for a hit DR stopped or a hit that never came) are ignored with
    a note. Attacking a dead target is refused (exit 1) unless --force.

    \b
    Example:
      chronicle attack Ivanior Guard --multi-weapon-fighting --iterative --roll 10 \\
        --weapon rapier:attack=15,damage=3,enhancement=3,threat=18,types=piercing \\
        --weapon dagger:attack=13,damage=2,enhancement=1,threat=19,light,types=piercing
    """
    declared = {k: v for k, v in options.items() if v not in (None, False)}
    damage_faces = faces(dice)
    if (damage_faces is not None or confirm_roll is not None) and roll is None and not declared.get("coup_de_grace"):
        raise BadInput("--dice and --confirm-roll need --roll: what they are used for depends on the attack roll")
    for n, value in enumerate(save_rolls, start=1):
        d20(value, f"--save-roll #{n}")

    def decide(session: Any) -> dict[str, Any]:
        striker = potestas_character(session, attacker, "attack")
        victim = potestas_character(session, target, "attack")
        if victim.condition.finished and not force:
            raise Refusal(f"{target} is already {victim.condition.lethal}; --force to attack anyway")
        arms = choose_weapons(striker.name, striker.sheet, weapons, multi_weapon)
        given = inputs(AttackInputs, attacker=striker.name, bab=striker.sheet.bab, strength=striker.sheet.strength,
                       dex=striker.sheet.dex, size=striker.sheet.size, weapons=arms, nonlethal=nonlethal, **declared)
        table, notes = _attack_table(session, victim, given, roll, confirm_roll, damage_faces)
        struck = record_on(session, victim, Attacked, given, table)()
        struck["weapons"] = [{"name": w.name, "bonus": given.weapon_bonus(w)} for w in arms]
        struck["notes"] = notes
        hits = victim.pending_events[-1].outcome.hits
        injuries = [_injury(session, victim, blow, force, save_rolls) for blow in hits]
        for injury in injuries:
            injury["breakdown"] = _breakdown(given, injury, struck["multiplier"], session.rulings())
        extra = [f"--save-roll #{n} {v} ignored: there was no hit {n}" for n, v in enumerate(save_rolls, 1) if n > len(hits)]
        last = injuries[-1] if injuries else struck
        return {"event": struck["event"], "version": last["version"], "attacker": attacker, "target": target,
                "hit": struck["hit"], "critical": struck["critical"], "attack": struck, "injuries": injuries,
                "events": [struck["event"], *(i["event"] for i in injuries)], "notes": notes + extra,
                "condition": last["condition"]}

    result = env.write(decide)
    emit(env, result, lambda: "\n".join(_attack_lines(result)))


def _attack_table(session: Any, victim: Any, given: Any, roll: int | None, confirm: int | None,
                  damage_faces: list[int] | None) -> tuple[dict[str, Any], list[str]]:
    """The dice table for the Attacked event, from a dry run with the table's rolls: which of them the
    rules ask for, and which damage purpose each --dice face belongs to."""
    notes: list[str] = []
    rolls = {"attack": d20(roll, "--roll"), "confirm": d20(confirm, "--confirm-roll")}
    rulings = session.rulings()
    dry = Dice(0, table={k: v for k, v in rolls.items() if v})
    outcome = Attacked.derive(victim.sheet, victim.condition, given, rulings, dry)
    used = dry.record().rolls
    purposes = {r.purpose for r in used}
    for purpose, option in (("attack", "--roll"), ("confirm", "--confirm-roll")):
        if rolls[purpose] is not None and purpose not in purposes:
            why = "a coup de grace hits automatically" if given.coup_de_grace else "no confirmation was needed"
            notes.append(f"{option} {rolls[purpose][0]} ignored: {why}")
            rolls[purpose] = None
    if damage_faces is not None:
        if outcome.threat and rulings.confirm_criticals and rulings.critical_damage == "reroll_dice" and confirm is None:
            raise BadInput("--dice on a threat under critical_damage=reroll_dice needs --confirm-roll")
        needed: dict[str, int] = {}
        for r in used:
            if r.purpose.startswith("damage:"):
                needed[r.purpose] = needed.get(r.purpose, 0) + len(r.faces)
        if sum(needed.values()) != len(damage_faces):
            detail = ", ".join(f"{p} {n}" for p, n in needed.items()) or "none: the attack misses or deals fixed damage"
            raise BadInput(f"this attack rolls {sum(needed.values())} damage dice ({detail}); --dice gave {len(damage_faces)}")
        rest = list(damage_faces)
        for purpose, count in needed.items():
            rolls[purpose], rest = rest[:count], rest[count:]
    return rolls, notes


def _injury(session: Any, victim: Any, blow: Any, force: bool, save_rolls: tuple[int, ...]) -> dict[str, Any]:
    """One hit as an Injured event. A hit landing after an earlier hit of the same attack killed the target
    is still recorded (forced): the blow happened, and a what-if replay needs it."""
    if force or victim.condition.finished:
        blow = blow.model_copy(update={"force": True})
    roll = save_rolls[blow.hit - 1] if blow.hit <= len(save_rolls) else None
    table, notes = save_table(session, victim, Injured, blow, roll, blow.save_purpose, f"--save-roll #{blow.hit}")
    result = record_on(session, victim, Injured, blow, table)()
    return {**result, **injury_context(session, victim, blow), "hit": blow.hit, "critical": blow.critical,
            "coup_de_grace": blow.coup_de_grace, "notes": notes}


def _breakdown(given: Any, injury: dict[str, Any], multiplier: int, rulings: Any) -> str:
    """How a hit's damage adds up: weapons + Str + enhancement (multiplied on a critical) + bonus + energy."""
    strength = given.strength_damage(rulings.str_penalty_applies)
    enhancement = sum(w.enhancement for w in given.weapons)
    times = multiplier if injury["critical"] else 1
    extra = given.bonus_damage + given.energy_damage
    weapon = injury["damage"] - (strength + enhancement) * times - extra
    names = " + ".join(w.name for w in given.weapons)
    if times == 1:
        core = f"{weapon} ({names}) + {strength} Str + {enhancement} enhancement"
    elif rulings.critical_damage == "reroll_dice":
        core = f"{weapon} ({names}, rolled {times} times) + ({strength} Str + {enhancement} enhancement) x {times}"
    else:
        core = f"({weapon // times} ({names}) + {strength} Str + {enhancement} enhancement) x {times}"
    tail = "".join(f" + {n} {what}" for n, what in ((given.bonus_damage, "bonus"), (given.energy_damage, "energy")) if n)
    floor = " (at least 1)" if weapon < 0 else ""
    return f"{core}{tail} = {injury['damage']}{floor}"


def _attack_lines(r: dict[str, Any]) -> list[str]:
    a = r["attack"]
    arms = ", ".join(f"{w['name']} {w['bonus']:+d}" for w in a["weapons"])
    mods = "".join(f"; {k} {v:+d}" for k, v in a["modifiers"].items())
    lines = [f"{r['attacker']} attacks {r['target']} with {arms} (lowest bonus used{mods}): attack bonus {a['attack_bonus']:+d}."]
    if a["roll"] is None:
        lines.append(f"Coup de grace: hits automatically as a critical (x{a['multiplier']}).")
    else:
        verdict = "hit" if a["hit"] else "miss"
        lines.append(f"Attack: rolled {a['roll']} {a['attack_bonus']:+d} = {a['total']} vs {a['target_number']} "
                     f"(10 + defence {a['defence']}): {verdict} by {abs(a['total'] - a['target_number'])}.")
        if a["usual_type"]:
            lines.append("Missed only by the lethal/nonlethal -4: hits, dealing its usual type of damage.")
        if a["threat"]:
            confirmed = f"confirmed: critical x{a['multiplier']}" if a["critical"] else "not confirmed"
            check = f"confirmation rolled {a['confirm_roll']} {a['attack_bonus']:+d}; " if a["confirm_roll"] is not None else ""
            lines.append(f"Threat: {check}{confirmed}.")
        if a["extra_hits"]:
            lines.append(f"Iterative: {a['extra_hits']} extra hit(s).")
    if a["provokes"]:
        lines.append(f"{r['attacker']} provokes an attack of opportunity.")
    if a["target_provokes"]:
        lines.append(f"{r['target']} provokes an attack of opportunity from {r['attacker']}.")
    lines.extend(f"Note: {note}" for note in r["notes"])
    lines.append(f"[event {r['event']}]")
    for injury in r["injuries"]:
        lines.append(f"-- hit {injury['hit']}{' (critical)' if injury['critical'] else ''}:")
        lines.append(f"   Damage: {injury['breakdown']}.")
        lines.extend("   " + line for line in injury_lines(r["target"], injury))
    if not r["injuries"]:
        lines.append(f"{r['target']}: {condition_line(r['condition'])}.")
    return lines
