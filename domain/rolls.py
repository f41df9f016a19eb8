"""Free rolls: `chronicle roll` records the dice, on a character or on the campaign."""

from typing import TYPE_CHECKING, Any

from .dice import Dice, DiceRecord, Expression
from .events import Event
from .model import Int64

if TYPE_CHECKING:
    from .aggregate import Aggregate


class DiceRolled(Event):
    notation: str
    total: Int64
    faces: tuple[Int64, ...]
    kept: tuple[bool, ...]
    reason: str = ""
    dice: DiceRecord

    def apply(self, aggregate: "Aggregate") -> None:
        """A free roll decides nothing about the character: its state is unchanged."""


def roll(notation: Expression | str, dice: Dice) -> dict[str, Any]:
    """The fields of a `DiceRolled` event for `notation` (parsed or not) rolled with `dice`."""
    result = dice.evaluate(notation, "roll")
    return {
        "notation": result.notation,
        "total": result.total,
        "faces": result.faces,
        "kept": result.kept,
        "dice": dice.record(),
    }
