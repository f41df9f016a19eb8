"""An attack told for people: the bonus and what made it, the roll against defence, criticals, and how each
hit's damage adds up (explain.py tells `Attacked` with it; the command's own output uses `damage_breakdown`)."""

from __future__ import annotations

from .attack import AttackOutcome
from .injury import InjuryInputs
from .rulings import Rulings
from .weapons import AttackInputs
from .words import and_list, plural, signed

MODIFIER_NAMES = {
    "multi_weapon": "multi-weapon",
    "hurried": "hurried",
    "switched_damage_type": "switching lethal and nonlethal",
    "squeezing": "squeezing",
    "flanking": "flanking",
}


def damage_breakdown(inputs: AttackInputs, blow: InjuryInputs, multiplier: int, rulings: Rulings) -> str:
    """How a hit's damage adds up: weapons + Str + enhancement (multiplied on a critical) + bonus + energy."""
    strength = inputs.strength_damage(rulings.str_penalty_applies)
    enhancement = sum(w.enhancement for w in inputs.weapons)
    times = multiplier if blow.critical else 1
    weapon = blow.damage - (strength + enhancement) * times - inputs.bonus_damage - inputs.energy_damage
    names = " + ".join(w.name for w in inputs.weapons)
    if times == 1:
        core = f"{weapon} ({names}) + {strength} Str + {enhancement} enhancement"
    elif rulings.critical_damage == "reroll_dice":
        core = f"{weapon} ({names}, rolled {times} times) + ({strength} Str + {enhancement} enhancement) x {times}"
    else:
        core = f"({weapon // times} ({names}) + {strength} Str + {enhancement} enhancement) x {times}"
    tail = "".join(
        f" + {n} {what}" for n, what in ((inputs.bonus_damage, "bonus"), (inputs.energy_damage, "energy")) if n
    )
    floor = " (at least 1)" if weapon < 0 else ""
    return f"{core}{tail} = {blow.damage}{floor}"


def attack_sentences(inputs: AttackInputs, outcome: AttackOutcome, rulings: Rulings, name: str) -> str:
    given, o = inputs, outcome
    attacker = given.attacker or "An attacker"
    arms = and_list([f"{w.name} ({given.weapon_bonus(w, rulings):+d})" for w in given.weapons])
    mods = "".join(f", {MODIFIER_NAMES.get(k, k.replace('_', ' '))} {v:+d}" for k, v in o.modifiers.items())
    lowest = " (the lowest)" if len(given.weapons) > 1 else ""
    said = [f"{attacker} attacks {name} with {arms}{mods}: attack bonus {o.attack_bonus:+d}{lowest}."]
    if o.roll is None or o.total is None:  # rolled and totalled together; a coup de grace has neither
        said.append(f"As a coup de grace it hits automatically, a critical (x{o.multiplier}).")
    else:
        verdict = "hits" if o.hit and not o.usual_type else "misses"
        said.append(
            f"Rolled {o.roll} {signed(o.attack_bonus)} = {o.total} against {o.target_number} "
            f"(10 + defence {o.defence}): {verdict} by {abs(o.total - o.target_number)}."
        )
        if o.usual_type:
            said.append(
                "It missed only by the -4 for switching lethal and nonlethal damage, so it hits, "
                "dealing its usual type of damage."
            )
        if o.threat:
            check = (
                f"confirmation roll {o.confirm_roll} {signed(o.attack_bonus)} " if o.confirm_roll is not None else ""
            )
            confirmed = f"confirms a critical (x{o.multiplier})" if o.critical else "does not confirm it"
            said.append(
                f"The roll threatens a critical; the {check}{confirmed}."
                if check
                else f"The roll threatens and {confirmed}."
            )
        if o.extra_hits:
            said.append(f"Iterative: {plural(o.extra_hits, 'extra hit')}.")
    for blow in o.hits:
        critical = ", critical" if blow.critical else ""
        said.append(f"Hit {blow.hit}{critical}: {damage_breakdown(given, blow, o.multiplier, rulings)} damage.")
    if o.provokes:
        said.append(f"{attacker} provokes an attack of opportunity.")
    if o.target_provokes:
        said.append(f"{name}, ignoring this flanker, provokes an attack of opportunity from {attacker}.")
    return " ".join(said)
