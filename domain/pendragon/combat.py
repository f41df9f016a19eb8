"""The one event every special tactic records: its inputs say which tactic, its outcome what happened."""

from typing import Annotated

from pydantic import Field

from ..dice import Dice
from ..events import Resolution
from .condition import Condition
from .defence import Dodge, DodgeAndFight, Formation, HoldOff, LargeShield, MissileAgainstShield
from .rulings import Rulings
from .sheet import Sheet
from .tactic_base import TacticOutcome
from .tactics import BreakShield, Disarm, Flurry, GreatBlow, MultipleOpponents, SpellWithAttack
from .weapons import SpecialParry, SpellWeaponFumble, SwordClash, SwordTiesMagicWeapon

TacticInputs = Annotated[
    BreakShield | Disarm | GreatBlow | Flurry | MultipleOpponents | SpellWithAttack | Dodge | DodgeAndFight
    | HoldOff | LargeShield | Formation | MissileAgainstShield | SpellWeaponFumble | SwordTiesMagicWeapon
    | SwordClash | SpecialParry,
    Field(discriminator="tactic"),
]


class TacticResolved(Resolution):
    """Each tactic names its own dice purposes in its docstring."""

    inputs: TacticInputs
    outcome: TacticOutcome

    @classmethod
    def derive(cls, sheet: Sheet, condition: Condition, inputs, rulings: Rulings, dice: Dice) -> TacticOutcome:
        return inputs.resolve(sheet, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, condition.model_copy(update={"knocked_down": self.outcome.knocked_down})
