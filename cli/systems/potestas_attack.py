"""`chronicle attack ATTACKER TARGET` for Potestas: one Attacked event on the target, then one Injured
event per hit, all saved together (RULINGS.md 1, Attack, Full attack options, Damage, Injury)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ...domain.character import Character
from ...domain.dice import Dice
from ...domain.errors import BadInput, Refusal
from ...domain.potestas import Attacked, AttackInputs, Injured, InjuryInputs, choose_weapons, explain, summary
from ...domain.potestas.explain import damage_breakdown
from ..actions import inputs
from ..context import Env
from ..options import common, faces
from ..output import emit
from .potestas_common import HELP, d20, ignored_notes, potestas_character

if TYPE_CHECKING:
    from ...ledger.recorded import Recorded
    from ...ledger.session import Session

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
@click.option(
    "--weapon",
    "weapons",
    multiple=True,
    metavar="NAME|SPEC",
    help="A weapon on ATTACKER's sheet by NAME, or a full SPEC name:attack=N,damage=D,enhancement=N,"
    "threat=N,multiplier=N,types=a+b plus flags light, two_handed, ranged, thrown (a ranged attack "
    "that adds Str), unarmed, nonlethal. Default: the sheet's first weapon. Two or more only "
    "with --multi-weapon.",
)
@click.option("--roll", type=int, metavar="N", help="The table's d20 attack roll.")
@click.option("--confirm-roll", type=int, metavar="N", help="The table's d20 confirmation roll (needs --roll).")
@click.option(
    "--dice", metavar="FACES", help="The table's damage dice faces, hit by hit and weapon by weapon (needs --roll)."
)
@click.option(
    "--save-roll",
    "save_rolls",
    type=int,
    multiple=True,
    metavar="N",
    help="The table's d20 injury save; repeat for hit 1, 2, ... (extras are ignored, with a note).",
)
@click.option(
    "--multi-weapon",
    is_flag=True,
    help="Declare a multi-weapon attack: with every weapon named, or every weapon on the sheet if none is.",
)
@click.option(
    "--nonlethal/--lethal",
    "nonlethal",
    default=None,
    help="Deal nonlethal (lethal) damage; default: the weapons' usual type.",
)
@_options
@click.option("--force", is_flag=True, help="Attack a dead character or destroyed object anyway.")
@common
@click.pass_obj
def attack(
    env: Env,
    attacker: str,
    target: str,
    weapons: tuple[str, ...],
    roll: int | None,
    confirm_roll: int | None,
    dice: str | None,
    save_rolls: tuple[int, ...],
    multi_weapon: bool,
    nonlethal: bool | None,
    force: bool,
    **options: Any,
) -> None:
    """ATTACKER attacks TARGET: d20 + attack bonus >= 10 + defence, with the
    full-attack options declared. The attack is recorded on TARGET, then each
    hit as its own injury (DR and a save each). ATTACKER's BAB, Str, Dex and
    size are copied into the event. Weapons: each --weapon NAME is the
    sheet's weapon of that name (a SPEC with `:` stands alone); without
    --weapon, the sheet's first weapon, or all of them with --multi-weapon.
    Weapons go on the sheet as specs separated by `;`:
    `character add Kara --stat "weapons=longsword:damage=1d8,types=slashing;javelin:damage=1d6,thrown"`.

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

    def decide(session: Session) -> list[Recorded]:
        striker = potestas_character(session, attacker, "attack")
        victim = potestas_character(session, target, "attack")
        if victim.condition.finished and not force:
            raise Refusal(f"{victim.name} is already {victim.condition.lethal}; --force to attack anyway")
        arms = choose_weapons(striker.name, striker.sheet, weapons, multi_weapon)
        given = inputs(
            AttackInputs,
            attacker=striker.name,
            bab=striker.sheet.bab,
            strength=striker.sheet.strength,
            dex=striker.sheet.dex,
            size=striker.sheet.size,
            weapons=arms,
            nonlethal=nonlethal,
            **declared,
        )
        table = _attack_table(session, victim, given, roll, confirm_roll, damage_faces)
        struck = session.record(victim, Attacked, given, table)
        return [struck, *(_injury(session, victim, blow, force, save_rolls) for blow in struck.event.outcome.hits)]

    struck, *injuries = env.write(decide)
    hits = len(injuries)
    notes = ignored_notes(struck, {"attack": "--roll", "confirm": "--confirm-roll"})
    notes += [
        note
        for n, injury in enumerate(injuries, 1)
        for note in ignored_notes(injury, {f"save:{n}": f"--save-roll #{n}"})
    ]
    notes += [f"--save-roll #{n} {v} ignored: there was no hit {n}" for n, v in enumerate(save_rolls, 1) if n > hits]
    emit(env, lambda: _document(struck, injuries, notes), lambda: _told(struck, injuries, notes))


def _attack_table(
    session: Session,
    victim: Character,
    given: AttackInputs,
    roll: int | None,
    confirm: int | None,
    damage_faces: list[int] | None,
) -> dict[str, list[int] | None]:
    """The dice table for the Attacked event. Table rolls the rules do not ask for are ignored when the
    event is recorded (Attacked.PURPOSES); only --dice needs a dry run, to give each face its purpose
    (hit and weapon), which depends on how the attack went."""
    rolls: dict[str, list[int] | None] = {"attack": d20(roll, "--roll"), "confirm": d20(confirm, "--confirm-roll")}
    if damage_faces is None:
        return rolls
    rulings = session.rulings()
    dry = Dice(0, table={k: v for k, v in rolls.items() if v})
    outcome = Attacked.derive(victim.sheet, victim.condition, given, rulings, dry)
    if outcome.threat and rulings.confirm_criticals and rulings.critical_damage == "reroll_dice" and confirm is None:
        raise BadInput("--dice on a threat under critical_damage=reroll_dice needs --confirm-roll")
    needed: dict[str, int] = {}
    for r in dry.record().rolls:
        if r.purpose.startswith("damage:"):
            needed[r.purpose] = needed.get(r.purpose, 0) + len(r.faces)
    if sum(needed.values()) != len(damage_faces):
        detail = ", ".join(f"{p} {n}" for p, n in needed.items()) or "none: the attack misses or deals fixed damage"
        raise BadInput(
            f"this attack rolls {sum(needed.values())} damage dice ({detail}); --dice gave {len(damage_faces)}"
        )
    rest = list(damage_faces)
    for purpose, count in needed.items():
        rolls[purpose], rest = rest[:count], rest[count:]
    return rolls


def _injury(
    session: Session, victim: Character, blow: InjuryInputs, force: bool, save_rolls: tuple[int, ...]
) -> Recorded:
    """One hit as an Injured event. A hit landing after an earlier hit of the same attack killed the target
    is still recorded (forced): the blow happened, and a what-if replay needs it."""
    if force or victim.condition.finished:
        blow = blow.model_copy(update={"force": True})
    roll = save_rolls[blow.hit - 1] if blow.hit <= len(save_rolls) else None
    return session.record(victim, Injured, blow, {blow.save_purpose: d20(roll, f"--save-roll #{blow.hit}")})


def _document(struck: Recorded, injuries: list[Recorded], notes: list[str]) -> dict[str, Any]:
    given, outcome = struck.event.inputs, struck.event.outcome
    attack = {
        **struck.document,
        "weapons": [{"name": w.name, "bonus": given.weapon_bonus(w)} for w in given.weapons],
        "notes": [n for n in notes if not n.startswith("--save-roll")],
    }
    hits = [
        {
            **injury.document,
            "hit": injury.event.inputs.hit,
            "critical": injury.event.inputs.critical,
            "coup_de_grace": injury.event.inputs.coup_de_grace,
            "notes": ignored_notes(
                injury, {f"save:{injury.event.inputs.hit}": f"--save-roll #{injury.event.inputs.hit}"}
            ),
            "breakdown": damage_breakdown(given, injury.event.inputs, outcome.multiplier, struck.event.ruled),
        }
        for injury in injuries
    ]
    last = injuries[-1] if injuries else struck
    return {
        "event": struck.event_id,
        "version": last.version,
        "attacker": given.attacker,
        "target": struck.name,
        "hit": outcome.hit,
        "critical": outcome.critical,
        "attack": attack,
        "injuries": hits,
        "events": [struck.event_id, *(i.event_id for i in injuries)],
        "notes": notes,
        "condition": last.document["condition"],
    }


def _told(struck: Recorded, injuries: list[Recorded], notes: list[str]) -> str:
    lines = [explain(struck.event, struck.name), *(explain(i.event, i.name) for i in injuries)]
    lines += [f"Note: {note}" for note in notes]
    before = summary(struck.sheet_before, struck.condition_before)
    last = injuries[-1] if injuries else struck
    after = summary(last.sheet, last.condition)
    events = ", ".join(r.event_id for r in (struck, *injuries))
    lines.append(f"Condition: {before} -> {after}.  [events {events}; version {last.version}]")
    return "\n".join(lines)
