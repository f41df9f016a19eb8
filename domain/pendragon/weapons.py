"""Weapon breakage and special parrying weapons (seed: Skills)."""

from typing import Literal

from pydantic import Field

from ..dice import Dice
from ..model import Model
from .resolution import Result
from .rulings import Rulings
from .sheet import Sheet
from .tactic_base import Attack, TacticOutcome, opposed_outcome

PARRY_STOPS = 4  # main gauche and quarterstaff, on a partial success


def magic_save(dice: Dice, spell_points: int, rune_points: int) -> tuple[int, int, bool]:
    """d20 <= the spell points, each point of rune magic or enchantment counting two. Dice: "weapon_save"."""
    target = spell_points + 2 * rune_points
    roll = dice.d(20, "weapon_save")
    return roll, target, roll <= target


class SpellWeaponFumble(Model):
    """A fumble with a non-sword bearing spells: the save means dropped rather than broken."""

    tactic: Literal["spell-weapon-fumble"] = "spell-weapon-fumble"
    spell_points: int = Field(0, ge=0)
    rune_points: int = Field(0, ge=0)  # rune magic and enchantment

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        roll, target, saved = magic_save(dice, self.spell_points, self.rune_points)
        return TacticOutcome(
            tactic=self.tactic, effects={"roll": roll, "target": target, "weapon": "dropped" if saved else "broken"}
        )


class SwordTiesMagicWeapon(Model):
    """A sword ties a magic non-sword: the same save keeps the non-sword whole."""

    tactic: Literal["sword-ties-magic-weapon"] = "sword-ties-magic-weapon"
    spell_points: int = Field(0, ge=0)
    rune_points: int = Field(0, ge=0)

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        roll, target, saved = magic_save(dice, self.spell_points, self.rune_points)
        return TacticOutcome(
            tactic=self.tactic, effects={"roll": roll, "target": target, "weapon": "whole" if saved else "broken"}
        )


class SwordClash(Attack):
    """Sword against sword: on a tie an iron sword breaks a bronze one. Dice: "check", "opponent"."""

    tactic: Literal["sword-clash"] = "sword-clash"
    metal: Literal["iron", "bronze"]
    opponent_metal: Literal["iron", "bronze"]

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        opposed = self.opposed(sheet, dice)
        broken = "none"
        if opposed.tie and self.metal != self.opponent_metal:
            broken = "opponent" if self.metal == "iron" else "self"
        return opposed_outcome(self.tactic, opposed, broken=broken)


class SpecialParry(Attack):
    """Parrying with a main gauche (beside a rapier) or a quarterstaff: a partial success stops 4 points;
    on tied successes against a sword the main gauche breaks instead of the rapier.
    `skill` is the parrying skill, `opponent_value` the attacker's. Dice: "check", "opponent"."""

    tactic: Literal["special-parry"] = "special-parry"
    weapon: Literal["main-gauche", "quarterstaff"]
    against_sword: bool = False

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        opposed = self.opposed(sheet, dice)
        stops = PARRY_STOPS if opposed.own.result is Result.partial_success else 0
        breaks = (
            self.weapon == "main-gauche"
            and self.against_sword
            and opposed.tie
            and opposed.own.result is not Result.critical
        )
        return opposed_outcome(self.tactic, opposed, stops=stops, broken="main-gauche" if breaks else "none")
