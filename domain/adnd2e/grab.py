"""Grabs and holds: the Strength contest (seed, Grab) and a monster's rough Strength."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput, CharacterRefused
from ..model import Model
from .condition import Condition
from .rulings import Rulings
from .sheet import Sheet, Size, Strength, one_handed, size_rank

# One attack's damage: a range (2-8), dice (1d8, d6, 2d4) or a fixed number, with an optional bonus (+1, -1).
_ATTACK = re.compile(r"(?:(\d{1,6})\s*-\s*(\d{1,6})|(\d{0,6})d(\d{1,6})|(\d{1,6}))\s*(?:([+-])\s*(\d{1,6}))?", re.ASCII)


def attack_maximum(part: str, attacks: str) -> int:
    """The maximum damage of one attack: 1-8 is 8, 1d8+1 is 9, 2-8+2 is 10; refuses 8-2, 0 and 2d0."""
    if re.search(r"\d{7}", part):
        raise BadInput(f"bad attack damage {part!r}: its numbers go up to 999999")
    match = _ATTACK.fullmatch(part.strip())
    if not match:
        raise BadInput(f"bad attack damage {part!r} in {attacks!r}: expected e.g. 2-8/4-10/4-10 or 1d8+1/1d8+1/2d6")
    low, high, count, sides, fixed, sign, bonus = match.groups()
    if high is not None and int(low) > int(high):
        raise BadInput(f"bad attack damage {part!r}: a range runs from low to high (write {high}-{low})")
    if sides is not None and (int(sides) == 0 or count == "0"):
        raise BadInput(f"bad attack damage {part!r}: dice need at least one die of at least one face")
    top = int(high) if high is not None else int(fixed) if fixed is not None else int(count or 1) * int(sides)
    top += (-1 if sign == "-" else 1) * int(bonus or 0)
    if top < 1:
        raise BadInput(f"bad attack damage {part!r}: its maximum must be at least 1")
    return top


def monster_strength(attacks: str, carrier: bool = False) -> int:
    """Largest maximum damage of one attack, +1 per attack beyond the first, +8 if known for carrying;
    the seed's formula has no cap (3-30/2-20/2-20 gives 32)."""
    maxima = [attack_maximum(part, attacks) for part in attacks.split("/")]
    return max(maxima) + len(maxima) - 1 + (8 if carrier else 0)


def size_modifier(grabber: Size, target: Size, player_race: bool) -> int:
    """+3 against a smaller, -6 against a larger one; halved toward zero for player races and demi-humans."""
    difference = size_rank(target) - size_rank(grabber)
    modifier = 3 if difference < 0 else -6 if difference > 0 else 0
    return int(modifier / 2) if player_race else modifier


def adjusted(strength: Strength, modifier: int) -> Strength:
    return strength if modifier == 0 else Strength(score=max(strength.score + modifier, 0))


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
    """Both roll d20 until one wins; however many rolls, it is one attack. When the table rolled the first
    exchange it rolls the re-rolls too: a tie it has not given is bad input asking for them, never ledger dice."""
    rolls: list[tuple[int, int]] = []
    from_table = bool(dice.unused().get(purpose))
    while True:
        if rolls and from_table and not dice.unused().get(purpose):
            given = ",".join(f"{a},{b}" for a, b in rolls)
            raise BadInput(
                f"the contest tied at {rolls[-1][0]} vs {rolls[-1][1]} and is re-rolled: "
                f"give the table's next two d20s too (--dice {given},A,B)"
            )
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
    holder: str = Field("", description="Who holds (for the story).")
    holder_strength: Strength | None = Field(
        None,
        description=(
            "The holder's Strength as given or on its sheet (held one-handed); none: as it counted in the grab."
        ),
    )
    held_strength: Strength | None = Field(
        None, description="The held side's own Strength when its sheet has none (a monster: --strength or --attacks)."
    )


def break_hold(
    sheet: Sheet, condition: Condition, inputs: BreakHoldInputs, rulings: Rulings, dice: Dice
) -> ContestOutcome:
    """A held character spends its attack on the Strength contest against the holder's Strength: as it counted
    in the recorded grab (one-handed, size-adjusted), else the given one held one-handed."""
    if condition.held_by is None:
        raise CharacterRefused(" is not held")
    own = strength_of(sheet, inputs.held_strength, "held character")
    if inputs.holder_strength is not None:
        holder = one_handed(inputs.holder_strength)
    elif condition.hold_strength is not None:
        holder = Strength.parse(condition.hold_strength)
    else:
        raise BadInput(f"the Strength of the holder ({condition.held_by}) is unknown: give it")
    won, rolls = contest(own, holder, dice, "hold_round")
    return ContestOutcome(first_strength=str(own), second_strength=str(holder), rolls=tuple(rolls), won=won)
