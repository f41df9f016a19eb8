"""The Potestas sheet as a player reads it: the numbers, the weapons, and the
wound ladder with its penalties (docs/rulings.md, Potestas, Condition ladder)."""

from __future__ import annotations

from .condition import Condition
from .sheet import Sheet, modifier
from .weapon import Weapon
from .words import type_words

LETHAL_LADDER = ("healthy", "wounded", "disabled", "dying", "dead")
NONLETHAL_LADDER = ("fresh", "bruised", "staggered", "unconscious")
MEANING = {
    "disabled": "one move or one standard action a turn; a standard action, moving over half speed, any other "
    "strenuous action or another wound makes {name} dying",
    "staggered": "one move or one standard action a turn; a standard action, moving over half speed, any other "
    "strenuous action or another wound of either kind knocks {name} unconscious",
    "unconscious": "helpless; further nonlethal wounds have no effect; healing one nonlethal wound wakes {name}",
    "dying": "unconscious; a dying save each turn; another wound kills",
    "stable": "unconscious but no longer dying; another wound starts the dying again",
    "dead": "no more actions, and no rest heals {name}",
    "destroyed": "broken beyond use, and no rest mends it",
}


def sheet_lines(sheet: Sheet, condition: Condition, name: str = "the character") -> list[str]:
    lines = _object_lines(sheet) if sheet.is_object else _character_lines(sheet)
    lines.extend(_ladder_lines(sheet, condition, name))
    return lines


def _character_lines(sheet: Sheet) -> list[str]:
    lines = [
        f"Fortitude {sheet.fort:+d}, damage reduction {sheet.dr}.",
        f"Base attack {sheet.bab:+d}, Str {sheet.strength} ({modifier(sheet.strength):+d}), "
        f"Dex {sheet.dex} ({modifier(sheet.dex):+d}), size {sheet.size:+d}; "
        f"defence {sheet.defence} (hit on {10 + sheet.defence}).",
    ]
    if sheet.weapons:
        lines.append("Weapons: " + "; ".join(weapon_words(w) for w in sheet.weapons) + ".")
    else:
        lines.append("Weapons: none on the sheet.")
    return lines


def _object_lines(sheet: Sheet) -> list[str]:
    holder = f", or its holder's Fortitude {sheet.holder_fort:+d} if better" if sheet.holder_fort is not None else ""
    return [
        f"An object: hardness {sheet.hardness}, {sheet.thickness} in thick; defence {sheet.defence}.",
        f"Saves against injury at {sheet.injury_save_bonus():+d}: base {sheet.fort:+d}{holder}, + hardness, "
        "+ 1 per inch beyond the first. Disabled means destroyed.",
    ]


def weapon_words(weapon: Weapon) -> str:
    """`rapier: damage 3, +3 enhancement, threat 18-20, x2, piercing`."""
    parts = [f"attack {weapon.attack:+d}"] if weapon.attack is not None else []
    parts.append(f"damage {weapon.damage}")
    if weapon.enhancement:
        parts.append(f"+{weapon.enhancement} enhancement")
    parts.append(
        f"critical {weapon.threat}-20 x{weapon.multiplier}" if weapon.threat < 20 else f"critical x{weapon.multiplier}"
    )
    sizes = {"light": "light", "two_handed": "two-handed"}
    parts += [sizes[weapon.size]] if weapon.size in sizes else []
    parts += ["thrown" if weapon.thrown else "ranged"] if weapon.ranged or weapon.thrown else []
    parts += [flag for flag in ("unarmed", "nonlethal") if getattr(weapon, flag)]
    parts += [type_words(weapon.types)] if weapon.types else []
    return f"{weapon.name}: {', '.join(parts)}"


def _ladder_lines(sheet: Sheet, condition: Condition, name: str) -> list[str]:
    wounds, bruises = condition.wounds, condition.nonlethal_wounds
    lethal = "wounded" if condition.lethal == "healthy" and wounds else condition.lethal
    nonlethal = "bruised" if condition.nonlethal == "fresh" and bruises else condition.nonlethal
    ladder = [
        f"[{step}]" if step == lethal or (step == "dying" and lethal == "stable") else step for step in LETHAL_LADDER
    ]
    if lethal == "stable":
        ladder[LETHAL_LADDER.index("dying")] = "[stable]"
    penalty = f"-{wounds} on every injury save" if wounds else "no penalty on injury saves"
    lines = [f"Wounds: {wounds}, {penalty}. Lethal track: {' > '.join(ladder)}."]
    if not sheet.is_object:
        track = " > ".join(f"[{s}]" if s == nonlethal else s for s in NONLETHAL_LADDER)
        more = f"-{bruises} more on saves against nonlethal damage" if bruises else "no more against nonlethal damage"
        lines.append(f"Nonlethal wounds: {bruises}, {more}. Nonlethal track: {track}.")
    for state in condition.states:
        lines.append(f"{state.capitalize()}: {MEANING[state].format(name=name)}.")
    if condition.rounds_unconscious and not condition.finished:
        rounds = condition.rounds_unconscious
        lines.append(f"Unconscious for {rounds} round{'s' if rounds != 1 else ''} so far.")
    return lines
