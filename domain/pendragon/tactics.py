"""Attacking tactics (seed: Special Combat Tactics; Actions Permitted in Melee)."""

from typing import Literal

from pydantic import Field

from ..dice import Dice
from ..errors import Refusal
from ..model import Model
from .resolution import Result, Roll, check
from .rulings import BreakShieldNeeds, Rulings, SpellAttackModifier
from .sheet import Sheet
from .tactic_base import Attack, Effect, TacticOutcome, opposed_outcome

SMALL_TARGET = -5  # break shield/weapon, disarm
GREAT_BLOW = -5
PER_EXTRA_OPPONENT = -5
SPELL_WITH_ATTACK = 5  # "a reflexive 5/+5 modifier" (docs/rulings.md `spell_attack_modifier`)
SHIELD_PARRY_ARMOUR = 6


class BreakShield(Attack):
    """On a win, damage against the parry armour (6) shatters the shield or weapon
    (docs/rulings.md `break_shield_needs`). Dice: "check", "opponent", "damage" (on a win)."""

    tactic: Literal["break-shield"] = "break-shield"
    damage: str  # the weapon's damage notation, e.g. 4d6
    small_weapon: bool = False  # daggers and the like cannot break shields
    parry_armour: int = SHIELD_PARRY_ARMOUR

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        if self.small_weapon:
            raise Refusal("a shield or weapon cannot be broken with a dagger or other small weapon")
        opposed = self.opposed(sheet, dice, SMALL_TARGET)
        if opposed.winner != "self":
            return opposed_outcome(self.tactic, opposed, SMALL_TARGET, shattered=False)
        damage = dice.evaluate(self.damage, "damage").total
        if rulings.break_shield_needs is BreakShieldNeeds.exceed:
            shattered = damage > self.parry_armour
        else:
            shattered = damage >= self.parry_armour
        return opposed_outcome(self.tactic, opposed, SMALL_TARGET, damage=damage, shattered=shattered)


class Disarm(Attack):
    """On a win, damage over the foe's STR knocks its weapon d6-1 metres away.
    Dice: "check", "opponent", "damage" and "distance" (d6)."""

    tactic: Literal["disarm"] = "disarm"
    damage: str
    opponent_str: int

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        opposed = self.opposed(sheet, dice, SMALL_TARGET)
        if opposed.winner != "self":
            return opposed_outcome(self.tactic, opposed, SMALL_TARGET, disarmed=False)
        damage = dice.evaluate(self.damage, "damage").total
        if damage <= self.opponent_str:
            return opposed_outcome(self.tactic, opposed, SMALL_TARGET, damage=damage, disarmed=False)
        metres = dice.d(6, "distance") - 1  # 0: it falls at the wielder's feet
        return opposed_outcome(self.tactic, opposed, SMALL_TARGET, damage=damage, disarmed=True, metres=metres)


class GreatBlow(Attack):
    """-5; a win adds one d6 of damage. Dice: "check", "opponent", "great_blow" (d6, on a win)."""

    tactic: Literal["great-blow"] = "great-blow"

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        opposed = self.opposed(sheet, dice, GREAT_BLOW)
        extra = dice.d(6, "great_blow") if opposed.winner == "self" else 0
        return opposed_outcome(self.tactic, opposed, GREAT_BLOW, extra_damage=extra)


class Flurry(Attack):
    """A winning critical does normal damage and allows a second, unopposed attack.
    Dice: "check", "opponent", "flurry" (d20, after a critical)."""

    tactic: Literal["flurry"] = "flurry"

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        opposed = self.opposed(sheet, dice)
        outcome = opposed_outcome(self.tactic, opposed, second_attack=False)
        if opposed.own.result is not Result.critical or opposed.winner != "self":
            return outcome  # two criticals tie: no blow lands, so no second attack
        second = check(dice, self.value(sheet), "flurry")
        return outcome.model_copy(
            update={
                "rolls": {**outcome.rolls, "second_attack": second},
                "effects": {"second_attack": True, "second_hit": second.result.succeeded},
            }
        )


class MultipleOpponents(Model):
    """-5 per extra opponent on every attack. Dice: "check" and "opponent" (d20 each), per opponent in order."""

    tactic: Literal["multiple-opponents"] = "multiple-opponents"
    skill: str
    modifier: int = 0
    opponent_values: list[int] = Field(min_length=2)

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        penalty = PER_EXTRA_OPPONENT * (len(self.opponent_values) - 1)
        rolls: dict[str, Roll] = {}
        wins = 0
        for number, opponent_value in enumerate(self.opponent_values, 1):
            opposed = Attack(skill=self.skill, modifier=self.modifier, opponent_value=opponent_value).opposed(
                sheet, dice, penalty
            )
            rolls |= {f"attack_{number}": opposed.own, f"opponent_{number}": opposed.opponent}
            wins += opposed.winner == "self"
        return TacticOutcome(tactic=self.tactic, modifier=penalty, rolls=rolls, effects={"wins": wins})


class SpellWithAttack(Attack):
    """Casting with an attack, "at a reflexive 5/+5 modifier" (docs/rulings.md `spell_attack_modifier`): reflexive,
    the caster's attack -5 and the opponent's opposed roll +5, the spell as usual; both_minus_5 (the earlier
    reading), the attack and the spell each -5. Dice: "check", "opponent", "spell" (d20)."""

    tactic: Literal["spell-with-attack"] = "spell-with-attack"
    spell_skill: str  # the sheet value the spell is cast with

    def resolve(self, sheet: Sheet, rulings: Rulings, dice: Dice) -> TacticOutcome:
        reflexive = rulings.spell_attack_modifier is SpellAttackModifier.reflexive
        opponent, spell_modifier = (SPELL_WITH_ATTACK, 0) if reflexive else (0, -SPELL_WITH_ATTACK)
        opposed = self.opposed(sheet, dice, -SPELL_WITH_ATTACK, opponent)
        spell = check(dice, sheet.value(self.spell_skill) + spell_modifier, "spell")
        effects: dict[str, Effect] = {"spell_cast": spell.result.succeeded}
        if opponent:
            effects = {"opponent_bonus": opponent, **effects}
        outcome = opposed_outcome(self.tactic, opposed, -SPELL_WITH_ATTACK, **effects)
        return outcome.model_copy(update={"rolls": {**outcome.rolls, "spell": spell}})
