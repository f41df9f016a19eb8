"""Real and temporary damage, sap knockouts and rest (docs/rulings.md, AD&D 2E; seed, Weapons in attack and Sap)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput, CharacterRefused, Refusal
from ..model import Model
from .condition import Condition, max_hp, settle
from .rulings import Rulings
from .sheet import Sheet, size_rank

Mode = Literal["lethal", "armed-nonlethal", "sap", "subdual"]
ROUNDS_PER_TURN = 10  # one round is a minute, one turn ten rounds
MINUTES_PER_DAY = 24 * 60


def split_damage(mode: Mode, damage: int) -> tuple[int, int]:
    """(real, temporary) for rolled weapon damage `damage`."""
    if damage < 0:
        raise BadInput(f"damage cannot be negative ({damage})")
    if mode == "lethal":
        return damage, 0
    if mode == "sap":  # only 25% of the damage is real, the rest temporary
        real = damage // 4
        return real, damage - real
    total = damage // 2  # armed non-lethal, and subdual like it: half damage, half of that temporary
    real = total // 2
    return real, total - real


def knockout_chance(damage: int, helpless: bool) -> int:
    """Sap: 5% a point up to 40%; against a sleeping or magically held victim 10% a point up to 80%."""
    return min(damage * 10, 80) if helpless else min(damage * 5, 40)


class InjureInputs(Model):
    damage: int = Field(description="The rolled weapon damage.")
    attacker: str = Field("", description="Who dealt it, if the table says (for the story).")
    mode: Mode = "lethal"
    magic_bonus: int = Field(0, ge=0, description="The weapon's magic bonus included in damage; a sap ignores it.")
    helpless: bool = Field(
        False, description="The victim is asleep or magically held, if the condition does not say so."
    )


class InjureOutcome(Model):
    damage: int  # counted damage: after a sap drops the magic bonus
    real: int
    temporary: int
    knocked_out: bool = False
    knockout_chance: int | None = None
    knockout_roll: int | None = None
    knockout_rounds: int | None = None
    woken: bool = False
    unconscious: bool
    dead: bool


def injure(sheet: Sheet, condition: Condition, inputs: InjureInputs, rulings: Rulings, dice: Dice) -> InjureOutcome:
    damage = inputs.damage
    if damage < 0:
        raise BadInput(f"damage cannot be negative ({damage})")
    max_hp(sheet)
    chance = roll = rounds = None
    knocked_out = woken = False
    if inputs.mode == "sap":
        if size_rank(sheet.size) > size_rank("medium"):
            raise Refusal(f"a sap works only on small or medium creatures, not {sheet.size} ones")
        damage = max(damage - inputs.magic_bonus, 0)  # the weapon is not used as intended
    real, temporary = split_damage(inputs.mode, damage)
    unconscious, dead = settle(
        sheet, condition, condition.real_damage + real, condition.temporary_damage + temporary, rulings
    )
    if inputs.mode == "sap" and not dead:  # the dead cannot be knocked out: no knockout roll
        helpless = inputs.helpless or condition.asleep or condition.magically_held
        chance = knockout_chance(damage, helpless)
        roll = dice.d(100, "knockout")
        knocked_out = roll <= chance
        woken = helpless and condition.asleep and roll >= 81  # a knockout roll of 81+ wakes the victim
        if knocked_out:
            rounds = dice.evaluate(rulings.sap_knockout_rounds, "knockout_rounds").total
    return InjureOutcome(
        damage=damage,
        real=real,
        temporary=temporary,
        knocked_out=knocked_out,
        knockout_chance=chance,
        knockout_roll=roll,
        knockout_rounds=rounds,
        woken=woken,
        unconscious=unconscious,
        dead=dead,
    )


class RestInputs(Model):
    hours: int = 0
    minutes: int = 0
    interrupted: bool = False
    force: bool = Field(False, description="Rest the dead anyway (they heal nothing).")


class RestOutcome(Model):
    minutes: int
    temporary_healed: int
    real_healed: int
    knocked_out_rounds: int  # left after the rest: time passes, one round a minute
    unconscious: bool
    dead: bool


def check_rest(condition: Condition, force: bool) -> None:
    """A rest the table asks for now: the dead are refused unless forced, as in every system (a recorded
    rest re-derived heals as `rest` says, whatever the state it meets)."""
    if condition.dead and not force:
        raise CharacterRefused(" is dead: a rest heals nothing (--force records it anyway)")


def rest(sheet: Sheet, condition: Condition, inputs: RestInputs, rulings: Rulings, dice: Dice) -> RestOutcome:
    """`temporary_recovery` hp a full turn of rest, `real_recovery` a full day; interrupted heals nothing."""
    if inputs.hours < 0 or inputs.minutes < 0:
        raise BadInput("a rest cannot last a negative time")
    minutes = inputs.hours * 60 + inputs.minutes
    healing = not (inputs.interrupted or condition.dead)
    temporary = (
        min(condition.temporary_damage, (minutes // ROUNDS_PER_TURN) * rulings.temporary_recovery) if healing else 0
    )
    real = min(condition.real_damage, (minutes // MINUTES_PER_DAY) * rulings.real_recovery) if healing else 0
    unconscious, dead = settle(
        sheet, condition, condition.real_damage - real, condition.temporary_damage - temporary, rulings
    )
    return RestOutcome(
        minutes=minutes,
        temporary_healed=temporary,
        real_healed=real,
        knocked_out_rounds=max(condition.knocked_out_rounds - minutes, 0),
        unconscious=unconscious,
        dead=dead,
    )
