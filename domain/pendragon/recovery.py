"""Natural healing between adventures.

The rule text and docs/rulings.md are silent on it, so the table's standard Pendragon rule applies: a
character heals its Healing Rate, (STR + CON) // 10 (at least 1), in hit points per full week of
rest, oldest wounds first. A wound that needs Chirurgery does not heal on its own, nor does a
character who still needs Chirurgery after falling unconscious (`chirurgery.py` ends that need); an
interrupted rest heals nothing, and a rest that heals nothing wakes nobody. The dead stay dead: their
rest is refused unless forced.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from ..errors import CharacterRefused
from ..model import Model
from .common import moved
from .condition import Condition, hp, is_unconscious_at
from .rulings import Rulings
from .sheet import Sheet

WEEK_MINUTES = 7 * 24 * 60


class RestInputs(Model):
    hours: int | None = Field(None, ge=0)
    minutes: int | None = Field(None, ge=0)
    interrupted: bool = False
    force: bool = False  # a dead character rests anyway

    @model_validator(mode="after")
    def _one_length(self) -> RestInputs:
        if (self.hours is None) == (self.minutes is None):
            raise ValueError("give exactly one of hours or minutes")
        return self

    @property
    def total_minutes(self) -> int:
        return self.hours * 60 if self.hours is not None else self.minutes  # type: ignore[return-value]


class RestOutcome(Model):
    weeks: int
    healing_rate: int
    healed: dict[int, int]  # wound id -> hit points healed
    hp: int
    unconscious: bool


def healing_rate(sheet: Sheet) -> int:
    return max((sheet.str + sheet.con) // 10, 1)


def rest(sheet: Sheet, condition: Condition, inputs: RestInputs, rulings: Rulings) -> RestOutcome:
    if hp(sheet, condition) <= 0 and not inputs.force:  # as in every system
        raise CharacterRefused(
            f" is dead ({hp(sheet, condition)} hit points): a rest heals nothing (--force records it anyway)"
        )
    weeks = 0 if inputs.interrupted else inputs.total_minutes // WEEK_MINUTES
    budget = weeks * healing_rate(sheet)
    healed: dict[int, int] = {}
    if not condition.chirurgery_for_unconsciousness:
        for wound in condition.wounds:
            if budget == 0:
                break
            if wound.needs_chirurgery or wound.amount == 0:
                continue
            healed[wound.id] = min(wound.amount, budget)
            budget -= healed[wound.id]
    after = hp(sheet, condition) + sum(healed.values())
    # a rest that heals nothing wakes nobody: only healing past the threshold does
    unconscious = condition.unconscious and (
        not healed or is_unconscious_at(after, sheet.max_hp, rulings.unconscious_threshold)
    )
    return RestOutcome(weeks=weeks, healing_rate=healing_rate(sheet), healed=healed, hp=after, unconscious=unconscious)


def after_rest(condition: Condition, outcome: RestOutcome) -> Condition:
    wounds = tuple(w.model_copy(update={"amount": w.amount - outcome.healed.get(w.id, 0)}) for w in condition.wounds)
    return condition.model_copy(update={"wounds": wounds, "unconscious": outcome.unconscious})


def __getattr__(name: str) -> type:
    """Event classes this module held before `events.py` (their topics in older events)."""
    return moved(__name__, name)
