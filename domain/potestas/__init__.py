"""Potestas: a wound-based variant of D&D 3E combat (seed 000, RULINGS.md section 1).

Pure rules (no I/O, clock or global RNG) and the events that record them; see `events` for the
dice purposes each action uses.
"""

from __future__ import annotations

from .attack import AttackOutcome, attack
from .condition import Condition
from .damage import DAMAGE_TYPES, DamageReduction, damage_type, fortitude_dc
from .events import EVENTS, Attacked, DyingSaveMade, Exerted, Fell, Injured, Rested
from .explain import explain
from .falling import Fall, FallInputs, FellOutcome, falling, minimum_fall
from .injury import InjuryInputs, InjuryOutcome, SaveRoll, injure
from .recovery import (
    DyingSaveInputs,
    DyingSaveOutcome,
    ExertionInputs,
    ExertionOutcome,
    RestInputs,
    RestOutcome,
    dying_save,
    exert,
    rest,
)
from .rulings import Rulings
from .sheet import Sheet, parse_sheet
from .sheet_text import sheet_lines
from .weapons import AttackInputs, Weapon, choose_weapons, parse_weapon

NAME = "potestas"
SHEET_OPTIONS = frozenset(
    {"object"}
)  # `character add` options beyond --stat: an object (hardness, thickness) instead of a creature


def view(sheet: Sheet, condition: Condition) -> dict:
    """The contract's JSON for `character show`: the condition (wounds, nonlethal_wounds, states) and the sheet."""
    return {
        "kind": sheet.kind,
        "condition": condition.contract(),
        "sheet": sheet.model_dump(mode="json", exclude={"kind"}),
    }


def summary(sheet: Sheet, condition: Condition) -> str:
    """One line, e.g. "2 wounds, 1 nonlethal; disabled"."""
    counts = []
    if condition.wounds:
        counts.append(f"{condition.wounds} wound{'s' if condition.wounds != 1 else ''}")
    if condition.nonlethal_wounds:
        counts.append(f"{condition.nonlethal_wounds} nonlethal")
    text = ", ".join(counts) or ("intact" if sheet.is_object else "unhurt")
    return f"{text}; {', '.join(condition.states)}" if condition.states else text


__all__ = [
    "SHEET_OPTIONS",
    "NAME",
    "EVENTS",
    "Rulings",
    "explain",
    "sheet_lines",
    "Sheet",
    "Condition",
    "parse_sheet",
    "view",
    "summary",
    "Injured",
    "DyingSaveMade",
    "Exerted",
    "Rested",
    "Attacked",
    "Fell",
    "InjuryInputs",
    "InjuryOutcome",
    "SaveRoll",
    "AttackInputs",
    "AttackOutcome",
    "Weapon",
    "parse_weapon",
    "choose_weapons",
    "DyingSaveInputs",
    "DyingSaveOutcome",
    "ExertionInputs",
    "ExertionOutcome",
    "RestInputs",
    "RestOutcome",
    "FallInputs",
    "FellOutcome",
    "Fall",
    "DamageReduction",
    "DAMAGE_TYPES",
    "injure",
    "attack",
    "dying_save",
    "exert",
    "rest",
    "falling",
    "minimum_fall",
    "fortitude_dc",
    "damage_type",
]
