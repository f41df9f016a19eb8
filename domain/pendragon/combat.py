"""What `TacticResolved` (events.py) takes: one of the special tactics, told apart by its `tactic` name."""

from typing import Annotated

from pydantic import Field

from .common import moved
from .defence import Dodge, DodgeAndFight, Formation, HoldOff, LargeShield, MissileAgainstShield
from .tactics import BreakShield, Disarm, Flurry, GreatBlow, MultipleOpponents, SpellWithAttack
from .weapons import SpecialParry, SpellWeaponFumble, SwordClash, SwordTiesMagicWeapon

TacticInputs = Annotated[
    BreakShield
    | Disarm
    | GreatBlow
    | Flurry
    | MultipleOpponents
    | SpellWithAttack
    | Dodge
    | DodgeAndFight
    | HoldOff
    | LargeShield
    | Formation
    | MissileAgainstShield
    | SpellWeaponFumble
    | SwordTiesMagicWeapon
    | SwordClash
    | SpecialParry,
    Field(discriminator="tactic"),
]


def __getattr__(name: str) -> type:
    """Event classes this module held before `events.py` (their topics in older events)."""
    return moved(__name__, name)
