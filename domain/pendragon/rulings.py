"""The table rulings PenDragon Pass needs (RULINGS.md section 3), one typed field per ruling key."""

from enum import StrEnum

from pydantic import Field

from ..model import Model


class StatusModifiers(StrEnum):
    additive = "additive"  # percentages summed, then applied once
    multiplicative = "multiplicative"  # each percentage applied in turn


class FeatThreshold(StrEnum):
    half_floor_inclusive = "half_floor_inclusive"  # d20 <= value // 2
    half_floor_exclusive = "half_floor_exclusive"  # d20 < value // 2 (the seed's "rolling under")
    half_ceil_inclusive = "half_ceil_inclusive"  # d20 <= ceil(value / 2)


class BreakShieldNeeds(StrEnum):
    exceed = "exceed"  # damage over the parry armour shatters
    equal_or_exceed = "equal_or_exceed"


class UnconsciousThreshold(StrEnum):
    quarter = "quarter"  # hp <= max_hp // 4
    below_quarter = "below_quarter"  # 4 * hp < max_hp


class ExperienceTiming(StrEnum):
    winter = "winter"
    month_after_adventure = "month_after_adventure"


class PowTraining(StrEnum):
    shamans_only = "shamans_only"
    anyone = "anyone"


class Rulings(Model):
    status_modifiers: StatusModifiers = Field(
        StatusModifiers.additive, description="How the head, yoke and missile Status modifiers combine.")
    feat_threshold: FeatThreshold = Field(
        FeatThreshold.half_floor_inclusive, description="What 'rolling under half the value' means for a Feat.")
    break_shield_needs: BreakShieldNeeds = Field(
        BreakShieldNeeds.exceed, description="Damage against the parry armour (6) needed to shatter a shield.")
    unconscious_threshold: UnconsciousThreshold = Field(
        UnconsciousThreshold.quarter, description="Hit points at which a character falls unconscious.")
    experience_timing: ExperienceTiming = Field(
        ExperienceTiming.winter, description="When experience rolls are made: each winter, or also a month after an adventure.")
    pow_training: PowTraining = Field(
        PowTraining.shamans_only, description="Who may train POW: only shamans and assistant shamans, or anyone.")
    tactic_training: bool = Field(
        True, description="Whether special tactics (e.g. fighting in formation) may be learned by training.")
