"""AD&D 2E events in sentences for people: who did what to whom, the dice and numbers
that decided, and the result. Pure: the event alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..events import DomainEvent
from ..tellers import tell
from .attacks import AttackOutcome, Strike
from .events import Attacked, Grabbed, HoldContested, Injured, Mugged, Rested, StateChanged
from .grab import ContestOutcome, attack_maximum, monster_strength
from .mugging import mug_save

MANEUVERS = {
    "normal": "attacks",
    "armed-nonlethal": "strikes with the flat of the weapon at",
    "subdual": "tries to subdue",
    "sap": "tries to sap",
    "mug": "tries to mug",
    "grab-object": "grabs at what is held by",
    "grab-person": "grabs one-handed at",
    "grab-monster": "grabs at",
    "punch": "punches",
    "wrestle": "wrestles",
    "overbear": "tries to overbear",
    "martial-arts": "strikes bare-handed (martial arts) at",
}
MODES = {"lethal": "lethal", "armed-nonlethal": "armed non-lethal", "sap": "sap", "subdual": "subdual"}


def explain(event: DomainEvent, name: str) -> str:
    """One paragraph for an AD&D 2E event recorded on character `name`."""
    return tell(TELLERS, event, name)


def _plus(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def _sum(roll: int, modifier: int) -> str:
    return f"{roll}" if modifier == 0 else f"{roll} {_plus(modifier)} = {roll + modifier}"


def _duration(minutes: int) -> str:
    """ "1 hour 20 minutes", "8 hours", "20 minutes"."""
    hours, rest = divmod(minutes, 60)
    told = ([f"{hours} hour{'' if hours == 1 else 's'}"] if hours else []) + (
        [f"{rest} minute{'' if rest == 1 else 's'}"] if rest or not hours else []
    )
    return " ".join(told)


def _rounds(count: int) -> str:
    return f"{count} round{'' if count == 1 else 's'}"


def _injured(event: Injured, name: str) -> str:
    i, o = event.inputs, event.outcome
    mode = MODES[i.mode]
    opening = f"{i.attacker} deals {name}" if i.attacker else f"{name} takes"
    if i.mode == "sap":
        dropped = (
            f" ({i.damage} less the weapon's +{i.magic_bonus} magic bonus, which a sap does not count)"
            if o.damage != i.damage
            else ""
        )
        split = f"{o.real} real (a quarter) and {o.temporary} temporary"
        said = f"{opening} {o.damage} sap damage{dropped}: {split}."
    elif i.mode == "lethal":
        said = f"{opening} {i.damage} {mode} damage: {o.real} real and {o.temporary} temporary."
    else:  # armed non-lethal and subdual: half the damage, half of that temporary (seed, Weapons in attack)
        halved = o.real + o.temporary
        split = f"{o.real} real and {o.temporary} temporary" if halved else "nothing"
        said = f"{opening} {i.damage} {mode} damage, halved to {halved}: {split}."
    parts = [said]
    if o.knockout_chance is not None:
        verdict = (
            f"{name} is knocked out for {_rounds(o.knockout_rounds or 0)}"
            if o.knocked_out
            else f"{name} is not knocked out"
        )
        woken = f", and the blow wakes {name}" if o.woken else ""
        helpless = o.knockout_chance != min(o.damage * 5, 40)
        per_point = (
            "10% a point of damage, at most 80%, against a sleeping or held victim"
            if helpless
            else "5% a point of damage, at most 40%"
        )
        parts.append(
            f"The knockout chance is {o.knockout_chance}% ({per_point}); the d100 rolled {o.knockout_roll}: "
            f"{verdict}{woken}."
        )
    parts.append(_result(name, o.unconscious, o.dead))
    return " ".join(part for part in parts if part)


def _result(name: str, unconscious: bool, dead: bool) -> str:
    if dead:
        return f"{name} dies."
    return f"{name} is unconscious." if unconscious else ""


def _rested(event: Rested, name: str) -> str:
    i, o = event.inputs, event.outcome
    interrupted = ", but is interrupted" if i.interrupted else ""
    kinds = [f"{n} {kind}" for n, kind in ((o.temporary_healed, "temporary"), (o.real_healed, "real")) if n]
    healed = f"heals {' and '.join(kinds)} hit point{'' if o.temporary_healed + o.real_healed == 1 else 's'}"
    why = "" if kinds or i.interrupted or o.dead else _healing_nothing(event)
    parts = [f"{name} rests for {_duration(o.minutes)}{interrupted} and {healed if kinds else 'heals nothing'}{why}."]
    if o.dead:
        parts.append(f"{name} is dead.")
    elif o.unconscious:
        parts.append(f"{name} is still unconscious.")
    if o.knocked_out_rounds:
        parts.append(f"{_rounds(o.knocked_out_rounds)} of the knockout remain.")
    return " ".join(parts)


def _healing_nothing(event: Rested) -> str:
    """Why an uninterrupted rest of the living healed nothing: the pace of healing (rulings temporary_recovery
    and real_recovery) against the rest's length."""
    temporary = event.rulings.get("temporary_recovery", 1)
    real = event.rulings.get("real_recovery", 1)
    minutes = event.outcome.minutes
    pace = f": temporary damage heals {temporary} a full turn (10 minutes) of rest and real damage {real} a full day"
    if minutes < 10:
        return f"{pace}, and {_duration(minutes)} is not a turn"
    if minutes < 24 * 60:
        return f"{pace}; there was no temporary damage to heal, and {_duration(minutes)} is not a day"
    return f"{pace}, and there was no damage to heal"


def _attacked(event: Attacked, name: str) -> str:
    i, o = event.inputs, event.outcome
    attacker = i.attacker or "Someone"
    weapon = f" with the {i.weapon}" if i.weapon else " bare-handed" if i.maneuver in ("punch", "wrestle") else ""
    thrown = " (thrown)" if i.missile and i.weapon and i.weapon_kind is None else ""
    parts = []
    if o.defender_strike is not None:
        parts.append(_strike(o.defender_strike, name, attacker, i.defender_weapon))
    parts.append(f"{attacker} {MANEUVERS[i.maneuver]} {name}{weapon}{thrown}: {_attack_roll(o, _thac0(event))}")
    m = o.modifiers
    parts += _to_hit(event)
    if m.initiative:
        parts.append(f"The called shot, announced before initiative, adds {m.initiative} to {attacker}'s initiative.")
    if m.defender_strikes_first and o.defender_strike is None:
        parts.append(f"{name}, armed, strikes first at +{m.defender_to_hit} to hit and +{m.defender_damage} to damage.")
    return " ".join(parts)


def _to_hit(event: Attacked) -> list[str]:
    """Where the attack roll's modifier comes from (seed, Weapons in attack, Mugging, Sap, Grab), when it has one."""
    i, o = event.inputs, event.outcome
    found: list[tuple[int, str]] = []
    if i.maneuver in ("armed-nonlethal", "subdual"):
        found.append((-4, "-4 for a weapon used so as not to kill"))
    if i.maneuver == "sap" or i.maneuver.startswith("grab"):
        found.append((-4, "-4 for the called shot"))
    if i.maneuver == "sap":
        found.append((-4, "-4 more for a sap"))
    if i.maneuver == "mug":
        found.append((4, "+4, the backstab bonus"))
    if i.attacker_held and i.maneuver != "wrestle":
        found.append((-4, "-4 for attacking while held"))
    if not found or sum(value for value, _ in found) != o.modifiers.to_hit or o.roll is None:
        return []
    said = [text for _, text in found]
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    return [f"The roll's {_plus(o.modifiers.to_hit).replace(' ', '')}: {listed}."]


def _thac0(event: Attacked) -> str:
    """The attacker's THAC0 and, when the rules worked it out, from what."""
    i, o = event.inputs, event.outcome
    if o.thac0 is None:
        return f"THAC0 {i.attacker_thac0 if i.attacker_thac0 is not None else 20}"
    if i.attacker_hit_dice is not None and event.rulings.get("monster_thac0", "hit_dice") == "hit_dice":
        return f"THAC0 {o.thac0} for {i.attacker_hit_dice} hit dice"
    return f"THAC0 {o.thac0}"


def _attack_roll(o: AttackOutcome, thac0: str) -> str:
    if o.roll is None:
        return "the victim is helpless, so the blow hits without a roll."
    verdict = "a hit" if o.hit else "a miss"
    natural = " (a natural 20 always hits)" if o.roll == 20 else " (a natural 1 always misses)" if o.roll == 1 else ""
    return (
        f"the d20 rolled {_sum(o.roll, o.modifiers.to_hit)} against {o.needed} "
        f"({thac0} - AC {o.modifiers.target_ac}): {verdict}{natural}."
    )


def _strike(strike: Strike, defender: str, attacker: str, weapon: str | None = None) -> str:
    if not strike.hit:
        verdict = "a miss"
    elif strike.damage is None:
        verdict = f"a hit, and its damage gets +{strike.damage_bonus}"
    else:
        rolled = strike.damage - strike.damage_bonus
        verdict = f"a hit for {rolled} + {strike.damage_bonus} = {strike.damage} damage"
    armed = f"armed with the {weapon}" if weapon else "armed"
    return (
        f"{defender}, {armed}, strikes first at the bare-handed {attacker}: the d20 rolled "
        f"{_sum(strike.roll, strike.to_hit)} against {strike.needed}: {verdict}."
    )


def _mugged(event: Mugged, name: str) -> str:
    i, o = event.inputs, event.outcome
    mugger = i.mugger or "A thief"
    weapon = f" with the {i.weapon}" if i.weapon else ""
    raised = (
        f"base {i.save_number}, changed by the level difference"
        if o.save_number != i.save_number
        else "unchanged by levels"
    )
    opening = f"{mugger} mugs {name}{weapon}. {name} saves vs petrification needing {o.save_number} ({raised})"
    if o.save_roll is None:
        result = "; above 20 no roll can make it (the ruling on saves above 20)"
    elif o.saved and o.save_number > 20:
        result = "; the d20 rolled a natural 20, which still saves (the ruling on saves above 20)"
    else:
        result = f"; the d20 rolled {o.save_roll}"
    verdict = f"{name} stays conscious." if o.saved else f"{name} is knocked out for {_rounds(o.knockout_rounds or 0)}."
    return f"{opening}{result}: {verdict}"


def _rolls(o: ContestOutcome) -> str:
    told = []
    for first, second in o.rolls:
        told.append(f"{first} against {second}")
    ties = len(o.rolls) - 1
    retold = f" ({ties} tie{'' if ties == 1 else 's'} re-rolled)" if ties else ""
    return f"the d20s rolled {', then '.join(told)}{retold}"


def _grabbed(event: Grabbed, name: str) -> str:
    i, o = event.inputs, event.outcome
    grabber = i.grabber or "Someone"
    how = {
        "object": f"grabs at the object {name} holds",
        "person": f"grabs {name} one-handed",
        "monster": f"grabs the monster {name}",
    }[i.target]
    won = {"object": f"{grabber} wins it", "person": f"{grabber} holds {name}", "monster": f"{grabber} holds {name}"}
    lost = {"object": f"{name} keeps it"}.get(i.target, f"{name} stays free")
    return (
        f"{grabber} {how}: Strength {o.first_strength} against {o.second_strength}, "
        f"{_rolls(o)}: {won[i.target] if o.won else lost}."
    )


def _hold_contested(event: HoldContested, name: str) -> str:
    o = event.outcome
    holder = event.inputs.holder or "the holder"
    verdict = f"{name} breaks free" if o.won else f"{name} stays held"
    return (
        f"{name} tries to break {holder}'s hold: Strength {o.first_strength} against {o.second_strength}, "
        f"{_rolls(o)}: {verdict}."
    )


def _state_changed(event: StateChanged, name: str) -> str:
    state, active, holder = event.inputs.state, event.inputs.active, event.inputs.holder or "someone"
    told = {
        ("asleep", True): "falls asleep",
        ("asleep", False): "wakes up",
        ("magically_held", True): "is magically held",
        ("magically_held", False): "is freed from the magical hold",
        ("held", True): f"is held by {holder}",
        ("held", False): "is released from the hold",
    }
    return f"{name} {told[(state, active)]}."


# `Any`: each teller takes its own event class, which no shared parameter type admits
TELLERS: dict[type, Callable[[Any, str], str]] = {
    Injured: _injured,
    Rested: _rested,
    Attacked: _attacked,
    Mugged: _mugged,
    Grabbed: _grabbed,
    HoldContested: _hold_contested,
    StateChanged: _state_changed,
}


def unused_reason(event: DomainEvent, purpose: str) -> str:
    """Why the rules did not ask for a die the table gave for `purpose` (one the action declares)."""
    if purpose == "attack":
        return "the blow hits without a roll"
    if purpose == "defence":
        return "only an armed defender against a bare-handed attack strikes first"
    if purpose == "knockout":
        return "only a sap's blow on the living rolls for a knockout"
    if purpose == "knockout_rounds":
        return "the victim saved" if isinstance(event, Mugged) else "the knockout roll failed"
    if purpose == "save":
        return "a save needing more than 20 cannot be made (the ruling on saves above 20)"
    if purpose in ("grab_round", "hold_round"):
        return "the contest was decided before them"
    return "the rules did not ask for it"


# The `rules` queries ----------------------------------------------------------------------------


def monster_strength_told(attacks: str, carrier: bool) -> str:
    """`rules monster-strength`: the rough Strength and what it adds up from."""
    parts = attacks.split("/")
    largest = max(attack_maximum(part, attacks) for part in parts)
    terms = [f"{largest} (the largest maximum damage of {attacks})"]
    if len(parts) > 1:
        terms.append(f"{len(parts) - 1} (one for each attack after the first)")
    if carrier:
        terms.append("8 (known for carrying)")
    return f"Strength {monster_strength(attacks, carrier)} = {' + '.join(terms)}."


def mug_save_told(base: int, mugger_level: int, victim_level: int) -> str:
    """`rules mug-save`: the number the mugged victim's save vs petrification needs, and how."""
    number = mug_save(base, mugger_level, victim_level)
    return (
        f"The victim saves vs petrification needing {number} = {base} (base) + {mugger_level} (the mugger's level) "
        f"- {victim_level} (the victim's level or hit dice)."
    )
