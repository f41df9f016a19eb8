"""AD&D 2E non-lethal combat (seed 003; docs/rulings.md, AD&D 2E): real and temporary damage, sap,
mugging, grabs and holds, as pure rules plus the events that record them."""

from .attacks import AttackInputs, AttackModifiers, AttackOutcome, attack, attack_modifiers
from .condition import STATE_WORDS, Condition, summary, view
from .damage import InjureInputs, InjureOutcome, RestInputs, RestOutcome, injure, knockout_chance, rest, split_damage
from .events import EVENTS, Attacked, Grabbed, HoldContested, Injured, Mugged, Rested, StateChanged, StateInputs
from .explain import explain, unused_reason
from .grab import BreakHoldInputs, ContestOutcome, GrabInputs, break_hold, grab, monster_strength, size_modifier
from .mugging import MugInputs, MugOutcome, mug, mug_save
from .rulings import Rulings
from .sheet import Sheet, Strength, one_handed, parse_sheet, sheet_keys
from .sheet_text import sheet_lines

NAME = "adnd2e"
SHEET_OPTIONS: frozenset[str] = frozenset()  # `character add` takes --stat only

__all__ = [
    "sheet_keys",
    "STATE_WORDS",
    "SHEET_OPTIONS",
    "NAME",
    "EVENTS",
    "Rulings",
    "Sheet",
    "Strength",
    "Condition",
    "parse_sheet",
    "view",
    "summary",
    "Injured",
    "Rested",
    "Attacked",
    "Mugged",
    "Grabbed",
    "HoldContested",
    "StateChanged",
    "InjureInputs",
    "InjureOutcome",
    "RestInputs",
    "RestOutcome",
    "AttackInputs",
    "AttackModifiers",
    "AttackOutcome",
    "MugInputs",
    "MugOutcome",
    "GrabInputs",
    "BreakHoldInputs",
    "ContestOutcome",
    "StateInputs",
    "split_damage",
    "knockout_chance",
    "injure",
    "rest",
    "attack_modifiers",
    "attack",
    "mug_save",
    "mug",
    "monster_strength",
    "size_modifier",
    "one_handed",
    "grab",
    "break_hold",
    "explain",
    "unused_reason",
    "sheet_lines",
]
