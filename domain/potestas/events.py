"""Potestas events, one per action. `derive` runs the pure rule; `evolve` is the fold step.

Dice purposes: Injured `save` (`save:N` for an attack's N-th hit), DyingSaveMade `save`, Attacked
`attack`, `confirm` and `damage:HIT:WEAPON` (`damage:HIT:WEAPON:K` when critical dice are rerolled),
Fell `save`. Exerted and Rested roll nothing.
"""

from typing import Any, ClassVar

from pydantic import Field

from ..dice import Dice
from ..events import Resolution
from .attack import AttackOutcome, attack
from .condition import Condition, after_exertion
from .falling import FallInputs, FellOutcome, falling
from .injury import InjuryInputs, InjuryOutcome, apply_injury, injure
from .recovery import (
    DyingSaveInputs,
    DyingSaveOutcome,
    ExertionInputs,
    ExertionOutcome,
    RestInputs,
    RestOutcome,
    apply_dying_save,
    apply_rest,
    dying_save,
    exert,
    rest,
)
from .rulings import Rulings
from .sheet import Sheet
from .weapons import AttackInputs


class PotestasResolution(Resolution):
    @property
    def ruled(self) -> Rulings:
        """The rulings recorded on this event (defaults for keys recorded before they existed)."""
        return Rulings.model_validate(self.rulings)


def _unlinked(attack: int | None) -> bool:
    return attack is None


class Injured(PotestasResolution):
    """One blow. A hit of an attack names its attack (`attack`), whose re-derivation decides it again
    (domain/refold.py); `attack` is left out of the stored JSON when None, so the injuries recorded
    before it existed keep their bytes (a hit recorded so is a hit of the attack just before it)."""

    PURPOSES: ClassVar[frozenset[str]] = frozenset({"save", "save:"})

    inputs: InjuryInputs
    outcome: InjuryOutcome
    attack: int | None = Field(None, exclude_if=_unlinked, description="The version of the hit's Attacked event.")

    def source(self) -> tuple[int | None, int] | None:
        """(its attack's version, which hit) for a hit of an attack, else None."""
        return (self.attack, self.inputs.hit) if self.inputs.hit else None

    @staticmethod
    def follow(blow: InjuryInputs, condition: Condition, recorded: InjuryInputs | None) -> InjuryInputs:
        """A hit's inputs as its attack deals it: forced, as the attack records it, when the blow was
        forced or the target was already finished (by an earlier hit of the same attack)."""
        forced = (recorded is not None and recorded.force) or condition.finished
        return blow.model_copy(update={"force": True}) if forced else blow

    @staticmethod
    def linked(attack: int) -> dict[str, Any]:
        return {"attack": attack}

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: InjuryInputs, rulings: Rulings, dice: Dice
    ) -> InjuryOutcome:
        return injure(sheet, condition, inputs, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, apply_injury(sheet, condition, self.outcome, self.ruled)

    class_version: ClassVar[int] = 2

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Injuries recorded before `unconscious_nonlethal` existed were derived as `knocked_out_only`."""
        state["rulings"] = {"unconscious_nonlethal": "knocked_out_only", **(state.get("rulings") or {})}


class DyingSaveMade(PotestasResolution):
    PURPOSES: ClassVar[frozenset[str]] = frozenset({"save"})

    inputs: DyingSaveInputs
    outcome: DyingSaveOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: DyingSaveInputs, rulings: Rulings, dice: Dice
    ) -> DyingSaveOutcome:
        return dying_save(sheet, condition, inputs, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, apply_dying_save(condition, self.inputs, self.outcome)

    class_version: ClassVar[int] = 2

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Dying saves recorded before `dying_save_naturals` existed took their naturals from `save_naturals`."""
        rulings = state.get("rulings") or {}
        state["rulings"] = {"dying_save_naturals": rulings.get("save_naturals", "standard"), **rulings}


class Exerted(PotestasResolution):
    PURPOSES: ClassVar[frozenset[str]] = frozenset()

    inputs: ExertionInputs
    outcome: ExertionOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: ExertionInputs, rulings: Rulings, dice: Dice
    ) -> ExertionOutcome:
        return exert(sheet, condition)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, after_exertion(condition)


class Rested(PotestasResolution):
    PURPOSES: ClassVar[frozenset[str]] = frozenset()

    inputs: RestInputs
    outcome: RestOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: RestInputs, rulings: Rulings, dice: Dice
    ) -> RestOutcome:
        return rest(sheet, condition, inputs)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, apply_rest(condition, self.outcome)


class Attacked(PotestasResolution):
    """Recorded on the target; its hits follow as one Injured event each. The attack itself changes nothing."""

    PURPOSES: ClassVar[frozenset[str]] = frozenset({"attack", "confirm", "damage:"})

    inputs: AttackInputs
    outcome: AttackOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: AttackInputs, rulings: Rulings, dice: Dice
    ) -> AttackOutcome:
        return attack(sheet, condition, inputs, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, condition

    CONSEQUENCE: ClassVar[type[Injured]] = Injured

    def consequences(self) -> tuple[InjuryInputs, ...]:
        """Its hits, each recorded as an Injured event naming this attack."""
        return self.outcome.hits


class Fell(PotestasResolution):
    """A fall: its bludgeoning damage and the injury save, in one event."""

    PURPOSES: ClassVar[frozenset[str]] = frozenset({"save"})

    inputs: FallInputs
    outcome: FellOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: FallInputs, rulings: Rulings, dice: Dice
    ) -> FellOutcome:
        fall = falling(inputs.feet)
        blow = InjuryInputs(damage=fall.damage, type="bludgeoning", force=inputs.force)
        return FellOutcome(fall=fall, injury=injure(sheet, condition, blow, rulings, dice))

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, apply_injury(sheet, condition, self.outcome.injury, self.ruled)


EVENTS: tuple[type[Resolution], ...] = (Injured, DyingSaveMade, Exerted, Rested, Attacked, Fell)
