"""Grabs and holds: the Strength contest (seed, Grab) and a monster's rough Strength."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput, Refusal
from ..model import Model
from .condition import Condition
from .rulings import Rulings
from .sheet import Sheet, Size, Strength, one_handed, size_rank

_ATTACK = re.compile(r"(?:(\d+)\s*-\s*)?(\d+)|(\d*)d(\d+)", re.ASCII)


def monster_strength(attacks: str, carrier: bool = False) -> int:
    """Largest maximum damage of one attack, +1 per attack beyond the first, +8 if known for carrying."""
    maxima = []
    for part in attacks.split("/"):
        match = _ATTACK.fullmatch(part.strip())
        if not match:
            raise BadInput(f"bad attack damage {part!r} in {attacks!r}: expected e.g. 2-8/4-10/4-10")
        _, high, count, sides = match.groups()
        maxima.append(int(high) if high else int(count or 1) * int(sides))
    return max(maxima) + len(maxima) - 1 + (8 if carrier else 0)


def size_modifier(grabber: Size, target: Size, player_race: bool) -> int:
    """+3 against a smaller, -6 against a larger one; halved toward zero for player races and demi-humans."""
    difference = size_rank(target) - size_rank(grabber)
    modifier = 3 if difference < 0 else -6 if difference > 0 else 0
    return int(modifier / 2) if player_race else modifier


def adjusted(strength: Strength, modifier: int) -> Strength:
    return strength if modifier == 0 else Strength(score=max(strength.score + modifier, 1))


def beats(first: Strength, first_roll: int, second: Strength, second_roll: int) -> bool | None:
    """Whether `first` wins one exchange: better margin (strength - roll), 18/xx counting 18; on a tie
    the higher percentile wins (none counts 0); None is a tie to re-roll."""
    first_margin, second_margin = first.score - first_roll, second.score - second_roll
    if first_margin != second_margin:
        return first_margin > second_margin
    if (first.percentile or 0) != (second.percentile or 0):
        return (first.percentile or 0) > (second.percentile or 0)
    return None


def contest(first: Strength, second: Strength, dice: Dice, purpose: str) -> tuple[bool, list[tuple[int, int]]]:
    """Both roll d20 until one wins; however many rolls, it is one attack."""
    rolls: list[tuple[int, int]] = []
    while True:
        first_roll, second_roll = dice.roll(20, 2, purpose)
        rolls.append((first_roll, second_roll))
        won = beats(first, first_roll, second, second_roll)
        if won is not None:
            return won, rolls


def strength_of(sheet: Sheet, given: Strength | None, who: str) -> Strength:
    if given is not None:
        return given
    if sheet.strength is None:
        raise BadInput(f"the {who} has no str on its sheet (for a monster: rules monster-strength)")
    return sheet.strength


class GrabInputs(Model):
    target: Literal["object", "person", "monster"] = Field(
        "object", description="object: its holder is this character; person: one-handed; monster: size matters."
    )
    grabber: str | None = None
    grabber_strength: Strength
    grabber_size: Size = "medium"
    target_strength: Strength | None = Field(None, description="Overrides the sheet (e.g. a monster's rough Strength).")


class ContestOutcome(Model):
    first_strength: str  # the Strengths compared, after adjustments
    second_strength: str
    rolls: tuple[tuple[int, int], ...]
    won: bool  # the first (the grabber, or the held character breaking free) won


def grab(sheet: Sheet, condition: Condition, inputs: GrabInputs, rulings: Rulings, dice: Dice) -> ContestOutcome:
    """After a hit: the grabber's Strength against this character's (the holder of the object, or the grabbed)."""
    strength = inputs.grabber_strength
    if inputs.target == "person":
        strength = one_handed(strength)  # two hands use the wrestling rules
    if inputs.target != "object":
        strength = adjusted(strength, size_modifier(inputs.grabber_size, sheet.size, sheet.player_race))
    own = strength_of(sheet, inputs.target_strength, "target")
    won, rolls = contest(strength, own, dice, "grab_round")
    return ContestOutcome(first_strength=str(strength), second_strength=str(own), rolls=tuple(rolls), won=won)


class BreakHoldInputs(Model):
    holder_strength: Strength = Field(description="Copied from the holder's sheet; it holds one-handed.")


def break_hold(sheet: Sheet, condition: Condition, inputs: BreakHoldInputs, rulings: Rulings, dice: Dice) -> ContestOutcome:
    """A held character spends its attack on the Strength contest against the holder's one-handed Strength."""
    if condition.held_by is None:
        raise Refusal("the character is not held")
    own = strength_of(sheet, None, "held character")
    holder = one_handed(inputs.holder_strength)
    won, rolls = contest(own, holder, dice, "hold_round")
    return ContestOutcome(first_strength=str(own), second_strength=str(holder), rolls=tuple(rolls), won=won)
