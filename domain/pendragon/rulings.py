"""The table rulings of PenDragon Pass, one typed field per ruling key: its default, its meaning and the text it
rests on (its basis). docs/rulings.md is made of them: `python -m chronicle.cli.rulings_doc > docs/rulings.md`."""

from enum import StrEnum
from typing import ClassVar

from pydantic import Field

from ..dice_rulings import LedgerRulings


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


class SpellAttackModifier(StrEnum):
    reflexive = "reflexive"  # the caster's attack -5, the opponent's opposed roll +5
    both_minus_5 = "both_minus_5"  # the spell and the attack each -5 (the earlier reading)


class CustomWorship(StrEnum):
    shamans = "shamans"  # the shaman flag or the Shaman honour
    anyone = "anyone"


class ChirurgeryCritical(StrEnum):
    heals_rate = "heals_rate"  # also heals the Healing Rate at once
    as_success = "as_success"


class Rulings(LedgerRulings):
    """PenDragon Pass, Pendragon rules for Glorantha: Status in place of Glory, oaths and geasa, Feats and special
    tactics, injury and the Winter Phase. What the text does not restate is standard Pendragon."""

    # Decisions the text leaves open that are no setting (docs/rulings.md, "Decided without a key").
    DECISIONS: ClassVar[tuple[str, ...]] = (
        "Rolls are standard Pendragon: a d20 equal to the value is a critical, under it a success, 20 a fumble "
        "(unless the value is 20 or more), over it a failure; a value over 20 adds its excess to the roll, and a "
        "total of 20 or more is then a critical. Opposed, a critical beats a success and the higher of two "
        "successes wins, the loser having a partial success; equal successes and two criticals tie.",
        "Every full 1,000 Status earns one increase; Status never falls below 0. The head, yoke and missile "
        "modifiers apply to foes and to amounts the table gives.",
        "Honor counts as a passion for the Status a trait or passion of 16 or more gains each winter.",
        "Raising a trait lowers its opposite by as much.",
        "Initiates are the sheet's `initiate` flag or the Initiate, Acolyte, Priest, High Priest or Rune Lord "
        "honour; shamans the `shaman` flag or the Shaman honour.",
        "Feats take only combat skills and physical statistics (fixed lists); other skills are neither, so no "
        "Feat with them, and they train up to 20. Tied criticals in a flurry give no second attack.",
        "Damage over SIZ knocks down without a DEX roll; falling unconscious calls for Chirurgery.",
        "A knocked-down knight is back on her feet once the fight is behind her: First Aid, magical healing, "
        "Chirurgery, a rest or a winter ends the knockdown, unless she is unconscious (she stands when she wakes) "
        "or dead. The text does not say when a fallen knight stands; in standard Pendragon getting up takes the "
        "round after the fall, and none of these is done in the fight's rounds.",
        "Chirurgery is a d20 against the healer's Chirurgery, and the healer is never the patient; it treats only "
        "a living patient who needs it. A success ends every need for it but wakes no one; a failure changes "
        "nothing; a fumble deals a new 1d6 wound (a major one if it reaches CON).",
        "Natural healing (`rest`) is standard Pendragon's Healing Rate, `(STR + CON) // 10` for each full week, and "
        "skips wounds awaiting Chirurgery.",
        "The winter runs economics, worship and the Status of traits and passions, then the experience checks, "
        "then training, in the text's order: a month of training rolls against the value experience left. "
        "Winters recorded before this order re-derive as they were decided.",
        "Training stops at the skill's cap (15 for physical skills, 20 for any) and spends its remaining months "
        "without a roll.",
    )

    status_modifiers: StatusModifiers = Field(
        StatusModifiers.additive,
        description="The head, yoke and missile Status modifiers are summed and applied once: +10% and -50% make "
        "-40% (multiplicative: each is applied in turn).",
        json_schema_extra={
            "basis": "The text gives each (10% more for a head taken after a challenge, 50% more on a chariot yoke, "
            "50% less with bows, crossbows or slings) but not how several combine; summing is the plain reading."
        },
    )
    feat_threshold: FeatThreshold = Field(
        FeatThreshold.half_floor_inclusive,
        description="A Feat succeeds on a d20 at or under half the value rounded down, value // 2 "
        "(half_floor_exclusive: under it; half_ceil_inclusive: at or under half rounded up).",
        json_schema_extra={
            "basis": "The text: a Feat succeeds 'by rolling under half the skill or statistic's value'. A Pendragon "
            "roll succeeds at or under its value, so under is read as at or under, and half rounds down."
        },
    )
    break_shield_needs: BreakShieldNeeds = Field(
        BreakShieldNeeds.exceed,
        description="A shield shatters when the damage is more than its parry armour of 6 (equal_or_exceed: 6 "
        "or more).",
        json_schema_extra={
            "basis": "The text opposes the damage against the shield's parry armour (6) and shatters the shield if "
            "that 'is successful'; in Pendragon damage gets through armour when it is more than the armour."
        },
    )
    unconscious_threshold: UnconsciousThreshold = Field(
        UnconsciousThreshold.quarter,
        description="A character falls unconscious at or below a quarter of its hit points, max // 4 "
        "(below_quarter: under it).",
        json_schema_extra={
            "basis": "The text does not restate it; in standard Pendragon a character whose hit points fall to a "
            "quarter of the total falls unconscious."
        },
    )
    experience_timing: ExperienceTiming = Field(
        ExperienceTiming.winter,
        description="Experience rolls are made in the Winter Phase only (month_after_adventure: also a month "
        "after an adventure, with the experience command).",
        json_schema_extra={
            "basis": "The text: 'At the GM's option, experience rolls may be made a month after an adventure'; "
            "standard Pendragon makes them in winter, so the option is the table's to take."
        },
    )
    pow_training: PowTraining = Field(
        PowTraining.shamans_only,
        description="Only a shaman or assistant shaman may train POW (anyone: any character may).",
        json_schema_extra={
            "basis": "The text brackets it as an option: 'POW may not be trained unless the character is a shaman "
            "or assistant shaman'. Like every option the text brackets, it is taken unless the table says not."
        },
    )
    tactic_training: bool = Field(
        True,
        description="Whether a special tactic such as fighting in formation may be learned by training, instead "
        "of a one-point increase or for a month and 120 silvers (false: no tactic is learned so).",
        json_schema_extra={
            "basis": "The text brackets both as options (learn a tactic 'instead of increasing a skill by one "
            "point'; 'special tactics can be learned by spending a month and 120 silvers'); taken, as every "
            "bracketed option is."
        },
    )
    spell_attack_modifier: SpellAttackModifier = Field(
        SpellAttackModifier.reflexive,
        description="A spell cast with an attack: the caster's attack is at -5 and the opponent's opposed roll at "
        "+5, the spell cast as usual (both_minus_5: the attack and the spell each at -5, the opponent as usual).",
        json_schema_extra={
            "basis": "The text: casting 'can be combined with an attack at a reflexive 5/+5 modifier'. A reflexive "
            "modifier in Pendragon hands the bonus to the other side: -5 to one, +5 to the other. The ledger read "
            "it as -5 to both before; spell attacks recorded then keep that reading."
        },
    )
    custom_worship: CustomWorship = Field(
        CustomWorship.shamans,
        description="Only a shaman (the sheet's shaman flag or the Shaman honour) worships with Custom (Own) at "
        "the clan's annual rituals (anyone: any character the table lets roll it).",
        json_schema_extra={
            "basis": "The text: 'characters from shamanic cultures' roll Custom (Own). The ledger knows no cultures, "
            "so a shaman stands for one; anyone leaves it to the table."
        },
    )
    chirurgery_critical: ChirurgeryCritical = Field(
        ChirurgeryCritical.heals_rate,
        description="A critical Chirurgery roll also heals the patient's Healing Rate at once (as_success: only "
        "what a success does).",
        json_schema_extra={
            "basis": "The text calls for Chirurgery but gives no rules for it; a critical heals so in standard "
            "Pendragon."
        },
    )
    chirurgery_interval_days: int = Field(
        7,
        ge=0,
        description="Days of care between two Chirurgery attempts on the same patient; a failure may be tried "
        "again after them.",
        json_schema_extra={"basis": "The text is silent; standard Pendragon rolls Chirurgery once a week of care."},
    )
