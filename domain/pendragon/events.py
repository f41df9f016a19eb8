"""PenDragon Pass events, one per action. `derive` runs the pure rule of its module; `evolve` is the fold step.

Each class declares `PURPOSES`, the dice purposes its derivation may draw. A purpose written
`name:key` (a winter's `experience:valorous`) is declared by its `name`.

Events recorded before this module existed name their class in the rule module that held it
(`chronicle.domain.pendragon.checks:Checked`, ...): `legacy_topics.py` keeps those names.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from ..dice import Dice
from ..events import Resolution
from . import checks, chirurgery, feats, injury, oaths, recovery, status, winter
from .checks import CheckInputs, CheckOutcome, ExperienceInputs, ExperienceOutcome
from .chirurgery import ChirurgeryInputs, ChirurgeryOutcome
from .combat import TacticInputs
from .common import event_id
from .condition import Condition
from .experience import key_dice_by_check
from .feats import FeatInputs, FeatOutcome
from .injury import FirstAidInputs, HealOutcome, InjureInputs, InjureOutcome, MagicHealInputs
from .oaths import (
    BreakGeasInputs,
    BreakOathInputs,
    FulfilInputs,
    FulfilOutcome,
    GeasInputs,
    HonorOutcome,
    SwearInputs,
    SwearOutcome,
)
from .recovery import RestInputs, RestOutcome
from .rulings import Rulings
from .sheet import Sheet
from .status import AwardInputs, AwardOutcome, IncreaseInputs, IncreaseOutcome
from .tactic_base import TacticOutcome
from .winter import WinterInputs, WinterOutcome


class PendragonResolution(Resolution):
    PURPOSES: ClassVar[frozenset[str]] = frozenset()


def _standing(kept: bool) -> bool:
    return not kept


class AfterTheFight(PendragonResolution):
    """An action that takes the knight out of the fight's rounds (First Aid, healing, Chirurgery, rest, a
    winter): a knockdown ends with it, unless the knight is unconscious or dead (docs/rulings.md, PenDragon
    Pass, decided without a key). `knockdown_kept`: recorded before knockdowns ended so, and folded as then."""

    knockdown_kept: bool = Field(False, exclude_if=_standing)

    @staticmethod
    def kept_knockdown(state: dict[str, Any]) -> None:
        state["knockdown_kept"] = True

    def stood(self, sheet: Sheet, condition: Condition) -> Condition:
        if self.knockdown_kept or not condition.knocked_down or condition.unconscious:
            return condition
        if sheet.max_hp - condition.damage <= 0:
            return condition
        return condition.model_copy(update={"knocked_down": False})


class Checked(PendragonResolution):
    """A d20 against a value, unopposed or opposed."""

    PURPOSES = frozenset({"check", "opponent"})
    inputs: CheckInputs
    outcome: CheckOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: CheckInputs, rulings: Rulings, dice: Dice
    ) -> CheckOutcome:
        return checks.check_value(sheet, condition, inputs, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, checks.after_check(condition, self.inputs, self.outcome)


class ExperienceRolled(PendragonResolution):
    """Experience rolls a month after an adventure (ruling `experience_timing`); dice `experience:<check>`."""

    PURPOSES = frozenset({"experience"})
    class_version: ClassVar[int] = 2
    inputs: ExperienceInputs
    outcome: ExperienceOutcome

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 drew its dice in order, purpose `experience`: key them by check."""
        key_dice_by_check(state, {"experience": [g["what"] for g in state.get("outcome", {}).get("experience", [])]})

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: ExperienceInputs, rulings: Rulings, dice: Dice
    ) -> ExperienceOutcome:
        return checks.roll_experience(sheet, condition, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return checks.after_experience(sheet, condition, self.outcome, event_id(self))


class StatusAwarded(PendragonResolution):
    inputs: AwardInputs
    outcome: AwardOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: AwardInputs, rulings: Rulings, dice: Dice
    ) -> AwardOutcome:
        return status.award(condition, inputs, rulings)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, status.after_award(condition, self.inputs, self.outcome)


class IncreaseSpent(PendragonResolution):
    inputs: IncreaseInputs
    outcome: IncreaseOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: IncreaseInputs, rulings: Rulings, dice: Dice
    ) -> IncreaseOutcome:
        return status.spend_increase(sheet, condition, inputs)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return status.after_increase(sheet, condition, self.inputs, event_id(self))


class OathSworn(PendragonResolution):
    inputs: SwearInputs
    outcome: SwearOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: SwearInputs, rulings: Rulings, dice: Dice
    ) -> SwearOutcome:
        return oaths.swear(condition, inputs)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, oaths.after_swearing(condition, self.inputs, self.outcome)


class OathFulfilled(PendragonResolution):
    inputs: FulfilInputs
    outcome: FulfilOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: FulfilInputs, rulings: Rulings, dice: Dice
    ) -> FulfilOutcome:
        return oaths.fulfil(condition, inputs)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, oaths.after_fulfilling(condition, self.outcome)


class OathBroken(PendragonResolution):
    PURPOSES = frozenset({"honor_loss"})
    inputs: BreakOathInputs
    outcome: HonorOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: BreakOathInputs, rulings: Rulings, dice: Dice
    ) -> HonorOutcome:
        return oaths.break_oath(sheet, condition, inputs, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return oaths.after_breaking_oath(sheet, condition, self.outcome)


class GeasTaken(PendragonResolution):
    inputs: GeasInputs
    outcome: SwearOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: GeasInputs, rulings: Rulings, dice: Dice
    ) -> SwearOutcome:
        return oaths.take_geas(condition, inputs)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, oaths.after_taking_geas(condition, self.inputs, self.outcome)


class GeasBroken(PendragonResolution):
    PURPOSES = frozenset({"honor_loss"})
    inputs: BreakGeasInputs
    outcome: HonorOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: BreakGeasInputs, rulings: Rulings, dice: Dice
    ) -> HonorOutcome:
        return oaths.break_geas(sheet, condition, inputs, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return oaths.after_breaking_geas(sheet, condition, self.outcome)


class FeatAttempted(PendragonResolution):
    PURPOSES = frozenset({"feat"})
    inputs: FeatInputs
    outcome: FeatOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: FeatInputs, rulings: Rulings, dice: Dice
    ) -> FeatOutcome:
        return feats.attempt_feat(sheet, inputs, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, condition.model_copy(update={"knocked_down": self.outcome.knockdown})


class TacticResolved(PendragonResolution):
    """One special tactic; each tactic's docstring names the purposes it draws."""

    PURPOSES = frozenset(
        {
            "check",
            "opponent",
            "damage",
            "distance",
            "great_blow",
            "flurry",
            "spell",
            "attack",
            "spear",
            "shield",
            "weapon_save",
        }
    )
    inputs: TacticInputs
    outcome: TacticOutcome
    class_version: ClassVar[int] = 2

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 cast a spell with an attack at -5 to both: it re-derives under that reading."""
        if (state.get("inputs") or {}).get("tactic") == "spell-with-attack":
            state["rulings"] = {"spell_attack_modifier": "both_minus_5", **(state.get("rulings") or {})}

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: TacticInputs, rulings: Rulings, dice: Dice
    ) -> TacticOutcome:
        return inputs.resolve(sheet, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, condition.model_copy(update={"knocked_down": self.outcome.knocked_down})


class Injured(PendragonResolution):
    """One wound, tracked on its own."""

    class_version: ClassVar[int] = 3

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        injury.upcast_forced(state)

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """Version 2 gave a wound no number of its own (it is one more than the highest when folded)."""

    inputs: InjureInputs
    outcome: InjureOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: InjureInputs, rulings: Rulings, dice: Dice
    ) -> InjureOutcome:
        return injury.injure(sheet, condition, inputs, rulings)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, injury.after_injury(condition, self.inputs, self.outcome)


class FirstAidGiven(AfterTheFight):
    PURPOSES = frozenset({"check", "heal"})
    class_version: ClassVar[int] = 3

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        injury.upcast_forced(state)

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        AfterTheFight.kept_knockdown(state)

    inputs: FirstAidInputs
    outcome: HealOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: FirstAidInputs, rulings: Rulings, dice: Dice
    ) -> HealOutcome:
        return injury.first_aid(sheet, condition, inputs, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, self.stood(sheet, injury.after_first_aid(condition, self.outcome))


class MagicallyHealed(AfterTheFight):
    class_version: ClassVar[int] = 3

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        injury.upcast_forced(state)  # version 1 healed the dead too

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        AfterTheFight.kept_knockdown(state)

    inputs: MagicHealInputs
    outcome: HealOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: MagicHealInputs, rulings: Rulings, dice: Dice
    ) -> HealOutcome:
        return injury.magic_heal(sheet, condition, inputs, rulings)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, self.stood(sheet, injury.after_magic_heal(condition, self.outcome))


class ChirurgeryPerformed(AfterTheFight):
    PURPOSES = frozenset({"check", "damage"})
    class_version: ClassVar[int] = 2

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        AfterTheFight.kept_knockdown(state)

    inputs: ChirurgeryInputs
    outcome: ChirurgeryOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: ChirurgeryInputs, rulings: Rulings, dice: Dice
    ) -> ChirurgeryOutcome:
        return chirurgery.operate(sheet, condition, inputs, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, self.stood(sheet, chirurgery.after_chirurgery(condition, self.inputs, self.outcome))


class Rested(AfterTheFight):
    class_version: ClassVar[int] = 3

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        injury.upcast_forced(state)  # version 1 rested the dead too

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        AfterTheFight.kept_knockdown(state)

    inputs: RestInputs
    outcome: RestOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: RestInputs, rulings: Rulings, dice: Dice
    ) -> RestOutcome:
        return recovery.rest(sheet, condition, inputs, rulings)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, self.stood(sheet, recovery.after_rest(condition, self.outcome))


class WinterResolved(AfterTheFight):
    """One character's Winter Phase."""

    PURPOSES = frozenset({"productivity", "worship", "training", "experience"})
    class_version: ClassVar[int] = 4

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        winter.upcast_winter_v1_v2(state)

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        winter.upcast_winter_v2_v3(state)

    @staticmethod
    def upcast_v3_v4(state: dict[str, Any]) -> None:
        AfterTheFight.kept_knockdown(state)

    inputs: WinterInputs
    outcome: WinterOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: WinterInputs, rulings: Rulings, dice: Dice
    ) -> WinterOutcome:
        return winter.resolve_winter(sheet, condition, inputs, rulings, dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        sheet, condition = winter.after_winter(sheet, condition, self.inputs, self.outcome, event_id(self))
        return sheet, self.stood(sheet, condition)


EVENTS: tuple[type[PendragonResolution], ...] = (
    Checked,
    ExperienceRolled,
    StatusAwarded,
    IncreaseSpent,
    OathSworn,
    OathFulfilled,
    OathBroken,
    GeasTaken,
    GeasBroken,
    FeatAttempted,
    TacticResolved,
    Injured,
    FirstAidGiven,
    MagicallyHealed,
    ChirurgeryPerformed,
    Rested,
    WinterResolved,
)
