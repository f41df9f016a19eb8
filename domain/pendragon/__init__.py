"""PenDragon Pass: Pendragon rules for Glorantha (seed 004; docs/rulings.md, PenDragon Pass), as pure functions.

The rule modules decide outcomes; `events` holds the events that record them (each event's
`derive(sheet, condition, inputs, rulings, dice)` and `evolve`). See `domain/systems.py` for the
package shape every system shares.
"""

from .condition import STATE_WORDS, Condition, summary, view
from .events import (
    EVENTS,
    Checked,
    ChirurgeryPerformed,
    ExperienceRolled,
    FeatAttempted,
    FirstAidGiven,
    GeasBroken,
    GeasTaken,
    IncreaseSpent,
    Injured,
    MagicallyHealed,
    OathBroken,
    OathFulfilled,
    OathSworn,
    Rested,
    StatusAwarded,
    TacticResolved,
    WinterResolved,
)
from .explain import explain
from .legacy_topics import LEGACY_TOPICS  # registers the topics of events recorded before events.py
from .resolution import Result, oppose, resolve
from .rulings import Rulings
from .sheet import Sheet, parse_sheet, sheet_changes, sheet_keys
from .sheet_text import sheet_lines
from .status import FOES, HONOURS
from .winter import LAND, land_modifier

NAME = "pendragon-pass"
SHEET_OPTIONS = frozenset({"virtues"})  # `character add` options beyond --stat: the five religious virtues

__all__ = [
    "sheet_keys",
    "STATE_WORDS",
    "SHEET_OPTIONS",
    "EVENTS",
    "LEGACY_TOPICS",
    "FOES",
    "HONOURS",
    "LAND",
    "NAME",
    "Condition",
    "Result",
    "Rulings",
    "Sheet",
    "land_modifier",
    "explain",
    "oppose",
    "parse_sheet",
    "sheet_changes",
    "resolve",
    "sheet_lines",
    "summary",
    "view",
    "Checked",
    "ChirurgeryPerformed",
    "ExperienceRolled",
    "FeatAttempted",
    "FirstAidGiven",
    "GeasBroken",
    "GeasTaken",
    "IncreaseSpent",
    "Injured",
    "MagicallyHealed",
    "OathBroken",
    "OathFulfilled",
    "OathSworn",
    "Rested",
    "StatusAwarded",
    "TacticResolved",
    "WinterResolved",
]
