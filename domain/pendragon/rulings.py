"""The table rulings PenDragon Pass needs (RULINGS.md section 3), one typed field per ruling key.

Keys added where the texts leave a decision open (issue 22), each with its default:
- `custom_worship` = `shamans`: who worships with Custom (Own) at the clan's annual rituals. The seed says
  "characters from shamanic cultures"; by default the sheet's `shaman` flag or the Shaman honour makes one
  (`anyone`: every character the table lets roll it).
- `chirurgery_critical` = `heals_rate`: a critical Chirurgery roll also heals the patient's Healing Rate at
  once (standard Pendragon); `as_success`: only what a success does.
- `chirurgery_interval_days` = 7: one Chirurgery attempt per patient per week of care (standard
  Pendragon's weekly roll); a failure may be tried again after it.

Decisions without a key (standard Pendragon, where the texts are silent):
- Initiates: the sheet's `initiate` flag, or the Initiate, Acolyte, Priest, High Priest or Rune Lord
  honour; shamans: the `shaman` flag or the Shaman honour (issue 22).
- Combat and physical skills are the lists in `skills.py`; other skills are neither (no Feat with them;
  trained up to 20).
- Chirurgery (`chirurgery.py`): a d20 against the healer's Chirurgery, never the patient's own; success
  ends every need for Chirurgery so natural healing proceeds; failure changes nothing; a fumble deals a
  new wound of 1d6. It treats only a living patient who needs it.
- A Status loss stops at 0; a month of training on a skill already at its cap is spent without a roll.
"""

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


class CustomWorship(StrEnum):
    shamans = "shamans"  # the shaman flag or the Shaman honour
    anyone = "anyone"


class ChirurgeryCritical(StrEnum):
    heals_rate = "heals_rate"  # also heals the Healing Rate at once
    as_success = "as_success"


class Rulings(Model):
    status_modifiers: StatusModifiers = Field(
        StatusModifiers.additive, description="How the head, yoke and missile Status modifiers combine."
    )
    feat_threshold: FeatThreshold = Field(
        FeatThreshold.half_floor_inclusive, description="What 'rolling under half the value' means for a Feat."
    )
    break_shield_needs: BreakShieldNeeds = Field(
        BreakShieldNeeds.exceed, description="Damage against the parry armour (6) needed to shatter a shield."
    )
    unconscious_threshold: UnconsciousThreshold = Field(
        UnconsciousThreshold.quarter, description="Hit points at which a character falls unconscious."
    )
    experience_timing: ExperienceTiming = Field(
        ExperienceTiming.winter,
        description="When experience rolls are made: each winter, or also a month after an adventure.",
    )
    pow_training: PowTraining = Field(
        PowTraining.shamans_only, description="Who may train POW: only shamans and assistant shamans, or anyone."
    )
    tactic_training: bool = Field(
        True, description="Whether special tactics (e.g. fighting in formation) may be learned by training."
    )
    custom_worship: CustomWorship = Field(
        CustomWorship.shamans, description="Who may worship with Custom (Own): shamans (flag or honour) or anyone."
    )
    chirurgery_critical: ChirurgeryCritical = Field(
        ChirurgeryCritical.heals_rate,
        description="Whether a critical Chirurgery roll also heals the Healing Rate at once.",
    )
    chirurgery_interval_days: int = Field(
        7, ge=0, description="Days of care between two Chirurgery attempts on the same patient."
    )
