"""Defensive tactics, formations, pole weapons and shields (seed: Special Combat Tactics)."""

from typing import Literal

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput
from ..model import Model
from .resolution import Result, check, oppose
from .rulings import Rulings
from .sheet import Sheet
from .tactic_base import Attack, TacticOutcome, opposed_outcome

HELD_OFF = -3  # facing a spear or pole weapon, until winning an opposed roll
LARGE_SHIELD_SKILL = -3
LARGE_SHIELD_ARMOUR = 3  # extra armour on a partial success
SHIELD_AGAINST_MISSILES = -5  # to the attacker


class Dodge(Model):
    """Only dodging: an unopposed DEX roll; a failure or fumble is a fall, and the foe then hits on an
    unopposed success. Dice: "check" (d20), "opponent" (d20, after a fall)."""

    tactic: Literal["dodge"] = "dodge"
    modifier: int = 0
    opponent_value: int  # the foe's combat skill
    opponent: str = ""  # who attacks, for the log

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        own = check(dice, sheet.dex + self.modifier)
        if own.result.succeeded:
            return TacticOutcome(tactic=self.tactic, rolls={"dodge": own}, effects={"avoided": True})
        foe = check(dice, self.opponent_value, "opponent")
        return TacticOutcome(
            tactic=self.tactic,
            rolls={"dodge": own, "opponent": foe},
            knocked_down=True,
            effects={"avoided": False, "hit": foe.result.succeeded},
        )


class DodgeAndFight(Attack):
    """The skill is split: `defence` opposes the foe; a fumble is a fall; still standing, the rest
    makes an unopposed attack. Dice: "check", "opponent", "attack" (d20, if standing)."""

    tactic: Literal["dodge-and-fight"] = "dodge-and-fight"
    defence: int = Field(ge=0)

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        total = self.value(sheet)
        if self.defence > total:
            raise BadInput(f"cannot put {self.defence} into defence out of a skill of {total}")
        opposed = oppose(
            check(dice, self.defence), check(dice, self.opponent_value + self.opponent_modifier, "opponent")
        )
        fell = opposed.own.result is Result.fumble
        outcome = opposed_outcome(self.tactic, opposed, defended=opposed.winner == "self")
        if fell:
            return outcome.model_copy(update={"knocked_down": True})
        attack = check(dice, total - self.defence, "attack")
        return outcome.model_copy(
            update={
                "rolls": {**outcome.rolls, "attack_portion": attack},
                "effects": {**outcome.effects, "hit": attack.result.succeeded},
            }
        )


class HoldOff(Attack):
    """Spears and two-handed pole weapons hold attackers off: whoever faces one has -3 until it wins an
    opposed roll. `side` says which side this character is. Dice: "check", "opponent"."""

    tactic: Literal["hold-off"] = "hold-off"
    side: Literal["holder", "facing"]
    held: bool = True  # the spear still holds the attacker back (the table tracks it between rolls)

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        penalty = HELD_OFF if self.held else 0
        if self.side == "facing":
            opposed, modifier = self.opposed(sheet, dice, penalty), penalty
            closed_in = opposed.winner == "self"
        else:
            opposed, modifier = self.opposed(sheet, dice, 0, penalty), 0
            closed_in = opposed.winner == "opponent"
        return opposed_outcome(self.tactic, opposed, modifier, held=self.held and not closed_in)


class LargeShield(Attack):
    """-3 to the skill; a partial success gives 3 extra points of armour. Dice: "check", "opponent"."""

    tactic: Literal["large-shield"] = "large-shield"

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        opposed = self.opposed(sheet, dice, LARGE_SHIELD_SKILL)
        partial = opposed.own.result is Result.partial_success
        return opposed_outcome(
            self.tactic, opposed, LARGE_SHIELD_SKILL, extra_armour=LARGE_SHIELD_ARMOUR if partial else 0
        )


class Formation(Model):
    """Attacking a formation: the attack opposes the spear roll; if it wins, the same roll opposes the
    shield roll (Battle, with its Defense bonus given in `shield_value`): a win lands the blow, and a
    partial success for the shield lets it parry the damage (the seed's Suboti example).
    Dice: "check", "spear", "shield" (d20, after beating the spear)."""

    tactic: Literal["formation"] = "formation"
    skill: str
    modifier: int = 0
    spear_value: int
    shield_value: int

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        own = check(dice, sheet.value(self.skill) + self.modifier)
        spear = oppose(own, check(dice, self.spear_value, "spear"))
        rolls = {"attack": spear.own, "spear": spear.opponent}
        if spear.winner != "self":
            return TacticOutcome(
                tactic=self.tactic,
                rolls=rolls,
                winner=spear.winner,
                tie=spear.tie,
                effects={"past_spear": False, "hit": False},
            )
        shield = oppose(own, check(dice, self.shield_value, "shield"))
        return TacticOutcome(
            tactic=self.tactic,
            rolls={**rolls, "shield": shield.opponent},
            winner=shield.winner,
            tie=shield.tie,
            effects={
                "past_spear": True,
                "hit": shield.winner == "self",
                "parried": shield.opponent.result is Result.partial_success,
            },
        )


class MissileAgainstShield(Model):
    """Shields act as cover against missiles: -5 to the attacker's unopposed roll. Dice: "check"."""

    tactic: Literal["missile-against-shield"] = "missile-against-shield"
    skill: str
    modifier: int = 0

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        own = check(dice, sheet.value(self.skill) + self.modifier + SHIELD_AGAINST_MISSILES)
        return TacticOutcome(
            tactic=self.tactic,
            modifier=SHIELD_AGAINST_MISSILES,
            rolls={"attack": own},
            effects={"hit": own.result.succeeded},
        )
