"""Potestas: a wound-based variant of D&D 3E combat (seed 000, docs/rulings.md, Potestas).

Pure rules (no I/O, clock or global RNG) and the events that record them; see `events` for the
dice purposes each action uses.
"""

from .attack import AttackOutcome, attack
from .condition import STATE_WORDS, Condition, summary, view
from .damage import DAMAGE_TYPES, DamageReduction, damage_type, fortitude_dc
from .events import EVENTS, Attacked, DyingSaveMade, Exerted, Fell, Injured, Rested
from .explain import explain, unused_reason
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
from .sheet import Sheet, parse_sheet, sheet_keys
from .sheet_text import sheet_lines
from .weapons import AttackInputs, Weapon, choose_weapons, parse_weapon

NAME = "potestas"
# `character add` options beyond --stat: an object (hardness, thickness) instead of a creature
SHEET_OPTIONS = frozenset({"object"})


__all__ = [
    "sheet_keys",
    "STATE_WORDS",
    "SHEET_OPTIONS",
    "NAME",
    "EVENTS",
    "Rulings",
    "explain",
    "unused_reason",
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
