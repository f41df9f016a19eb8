"""Falling (docs/rulings.md, Potestas, Falling, derived): 4 bludgeoning damage per full 5 ft/s of impact velocity.

630 ft in one 6-second round means 35 ft/s^2 and a top speed of 210 ft/s, so
velocity = min(sqrt(70 * feet), 210) and the damage is at most 4 * 42 = 168.
"""

import math

from pydantic import Field, model_validator

from ..errors import BadInput
from ..model import Model
from .injury import InjuryOutcome

TERMINAL_VELOCITY = 210
MAX_HITS = TERMINAL_VELOCITY // 5


class Fall(Model):
    feet: int
    velocity: float = Field(description="Impact velocity in ft/s.")
    hits: int = Field(description="Full 5 ft/s of velocity.")
    damage: int = Field(description="4 per hit.")


class FallInputs(Model):
    feet: int
    force: bool = Field(False, description="Let a dead character or destroyed object fall anyway.")

    @model_validator(mode="after")
    def _not_negative(self) -> "FallInputs":
        if self.feet < 0:
            raise BadInput(f"a fall cannot be negative ({self.feet} ft)")
        return self


def falling(feet: int) -> Fall:
    if feet < 0:
        raise BadInput(f"a fall cannot be negative ({feet} ft)")
    hits = min(math.isqrt(70 * feet) // 5, MAX_HITS)  # floor(sqrt(x)) // 5 == floor(sqrt(x) / 5), exactly
    velocity = min(math.sqrt(70 * feet), TERMINAL_VELOCITY)
    return Fall(feet=feet, velocity=round(velocity, 2), hits=hits, damage=4 * hits)


def minimum_fall(hits: int) -> int:
    """The seed's missing table: the shortest whole-foot fall that deals `hits` hits, ceil((5h)^2 / 70)."""
    if not 0 <= hits <= MAX_HITS:
        raise BadInput(f"a fall deals 0 to {MAX_HITS} hits, not {hits}")
    return -(-((5 * hits) ** 2) // 70)


class FellOutcome(Model):
    fall: Fall
    injury: InjuryOutcome
