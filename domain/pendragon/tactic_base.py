"""What every special tactic resolves to, and the opposed attack most of them share."""

from ..dice import Dice
from ..model import Model
from .resolution import Opposed, Roll, check, oppose
from .sheet import Sheet

Effect = int | bool | str


class TacticOutcome(Model):
    tactic: str
    modifier: int = 0  # what the tactic did to this character's value
    rolls: dict[str, Roll] = {}  # by role: "attack", "opponent", "spear", "shield", ...
    winner: str | None = None  # "self", "opponent" or "none" for the main opposed roll
    tie: bool = False
    effects: dict[str, Effect] = {}
    knocked_down: bool = False  # this character ends on the ground


class Attack(Model):
    """Inputs shared by opposed attacks: the attacker's skill and the defender's value (copied in)."""

    skill: str
    modifier: int = 0
    opponent_value: int
    opponent_modifier: int = 0
    opponent: str = ""  # who opposes, for the log (NAME:SKILL as given)

    def value(self, sheet: Sheet, tactic_modifier: int = 0) -> int:
        return sheet.value(self.skill) + self.modifier + tactic_modifier

    def opposed(self, sheet: Sheet, dice: Dice, tactic_modifier: int = 0, opponent_tactic_modifier: int = 0) -> Opposed:
        """Dice: "check" (d20) for this character, "opponent" (d20) for the other side."""
        own = check(dice, self.value(sheet, tactic_modifier))
        return oppose(
            own, check(dice, self.opponent_value + self.opponent_modifier + opponent_tactic_modifier, "opponent")
        )


def opposed_outcome(tactic: str, opposed: Opposed, modifier: int = 0, **effects: Effect) -> TacticOutcome:
    return TacticOutcome(
        tactic=tactic,
        modifier=modifier,
        rolls={"attack": opposed.own, "opponent": opposed.opponent},
        winner=opposed.winner,
        tie=opposed.tie,
        effects=effects,
    )
