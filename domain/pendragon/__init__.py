"""PenDragon Pass: Pendragon rules for Glorantha (seed 004; RULINGS.md section 3), as pure functions.

Each event's `derive(sheet, condition, inputs, rulings, dice)` decides an outcome; its `evolve` folds
it into the sheet and condition. See `domain/systems.py` for the package shape every system shares.
"""

from .checks import Checked, ExperienceRolled
from .combat import TacticResolved
from .condition import Condition, summary, view
from .feats import FeatAttempted
from .injury import FirstAidGiven, Injured, MagicallyHealed
from .oaths import GeasBroken, GeasTaken, OathBroken, OathFulfilled, OathSworn
from .recovery import Rested
from .resolution import Result, oppose, resolve
from .rulings import Rulings
from .sheet import Sheet, parse_sheet
from .status import FOES, HONOURS, IncreaseSpent, StatusAwarded
from .winter import LAND, WinterResolved, land_modifier

NAME = "pendragon-pass"

EVENTS = (
    Checked, ExperienceRolled, StatusAwarded, IncreaseSpent, OathSworn, OathFulfilled, OathBroken, GeasTaken,
    GeasBroken, FeatAttempted, TacticResolved, Injured, FirstAidGiven, MagicallyHealed, Rested, WinterResolved,
)

__all__ = [
    "EVENTS", "FOES", "HONOURS", "LAND", "NAME", "Condition", "Result", "Rulings", "Sheet", "land_modifier",
    "oppose", "parse_sheet", "resolve", "summary", "view", *(e.__name__ for e in EVENTS),
]
