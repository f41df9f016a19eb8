"""The AD&D 2E sheet as a player reads it: hit points with real and temporary
damage, states, level and class, the numbers, the weapons."""

from __future__ import annotations

from .condition import Condition, states_in_words
from .sheet import Sheet
from .weapons import Weapon


def sheet_lines(sheet: Sheet, condition: Condition) -> list[str]:
    """The sheet as a 2E player reads it: hit points with real and temporary damage, states, then the rest."""
    top = sheet.hp or 0
    lines = [
        f"Hit points: {top - condition.real_damage - condition.temporary_damage} of {top} "
        f"({condition.real_damage} real and {condition.temporary_damage} temporary damage)."
    ]
    states = states_in_words(condition)
    if states:
        lines.append(f"Now: {', '.join(states)}.")
    identity = " ".join(
        part
        for part in (f"Level {sheet.level}" if sheet.level is not None else "", sheet.character_class or "")
        if part
    )
    if sheet.hd is not None:
        identity = ", ".join(part for part in (identity, hit_dice(sheet.hd)) if part)
    body = f"{sheet.race}, {sheet.size}" + (f", {sheet.height} in tall" if sheet.height else "")
    lines.append(f"{identity}; {body}." if identity else f"{body.capitalize()}.")
    numbers = [
        f"{label} {value}"
        for label, value in (
            ("Strength", sheet.strength),
            ("Dexterity", sheet.dex),
            ("AC", sheet.ac),
            ("THAC0", sheet.thac0),
            ("save vs petrification", sheet.petrification),
        )
        if value is not None
    ]
    if sheet.shield:
        numbers.append(f"shield {sheet.shield}")
    if numbers:
        lines.append(", ".join(numbers) + ".")
    if sheet.weapons:
        lines.append("Weapons: " + "; ".join(weapon_words(w) for w in sheet.weapons) + ".")
    if not sheet.backstab:
        lines.append("No backstab (so no mugging) is possible against it.")
    return lines


def hit_dice(hd: int | str) -> str:
    """ "1 hit die", "1/2 hit die", "4 hit dice", "4+4 hit dice"."""
    return f"{hd} hit {'die' if str(hd) in ('1', '1/2', '½') else 'dice'}"


def weapon_words(weapon: Weapon) -> str:
    """`club (blunt, small, 1d6)`."""
    kind = f"{weapon.kind}{' missile' if weapon.missile else ''}, {weapon.size}"
    damage = f", {weapon.damage}" if weapon.damage else ""
    magic = f", +{weapon.magic}" if weapon.magic else ""
    return f"{weapon.name} ({kind}{damage}{magic})"
