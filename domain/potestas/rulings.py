"""Potestas's table rulings, one typed field per ruling key: its default, its meaning and the text it rests on
(its basis). docs/rulings.md is made of them: `python -m chronicle.cli.rulings_doc > docs/rulings.md`."""

from typing import ClassVar, Literal

from pydantic import Field, field_validator

from ..dice_rulings import LedgerRulings


class Rulings(LedgerRulings):
    """Potestas, a D&D 3E supplement: attacks as in 3E, but no hit points. Damage that gets past damage
    reduction calls for a Fortitude save against DC 15 + damage // 5; a failure is a wound, and a bad one
    disables or staggers."""

    # Decisions the text leaves open that are no setting (docs/rulings.md, "Decided without a key").
    DECISIONS: ClassVar[tuple[str, ...]] = (
        "Weapons live on the sheet (`weapons=longsword:damage=1d8,types=slashing;javelin:damage=1d6,thrown`); "
        "`--weapon NAME` picks one, and several need `--multi-weapon`. A thrown weapon is ranged for range and cover "
        "and still adds Strength to damage (the text: a melee or thrown weapon, a sling included).",
        "One-handed, in multi-weapon fighting, is the 3E size category: a light weapon such as a dagger is not "
        "one-handed. So the text's Ivanior (rapier and dagger, with the feat) takes -2, and his example comes out "
        "as written: +11 to hit, 12 damage, DC 17.",
        "A multi-weapon blow gets past damage reduction only with a quality every weapon has (all silver, all "
        "magic); a weapon with an enhancement bonus counts as magic.",
        "A coup de grace needs a helpless target; nonlethal damage to an object is bad input.",
        "Each wound healed moves the character one step back up its track (dying or stable, then disabled, then "
        "wounded), as the text has one nonlethal wound healed wake an unconscious character. Objects and the "
        "dead heal nothing.",
        "Falling: the text's table of distances is missing. Its figures (630 feet fallen in one round of six "
        "seconds) mean an acceleration of 35 ft/s² and a top speed of 210 ft/s, so the velocity is "
        "`min(√(70 × feet), 210)` and the damage `4 × (velocity // 5)`, at most 168.",
    )

    enhancement_to_hit: bool = Field(
        True,
        description="A weapon's enhancement bonus adds to its attack bonus as well as to damage (false: to damage "
        "only, and a weapon's given attack bonus is taken without it).",
        json_schema_extra={
            "basis": "The text names enhancement only as damage; D&D 3E adds it to the attack roll too, and the "
            "text's Ivanior example counts it (his +3 rapier's usual +15)."
        },
    )
    natural_20_hits: bool = Field(
        True,
        description="A natural 20 on an attack roll hits whatever the total (false: only the total counts).",
        json_schema_extra={
            "basis": "The text compares the total with the defence bonus + 10 and says nothing of natural rolls; "
            "Potestas supplements D&D 3E, where a natural 20 always hits."
        },
    )
    natural_1_misses: bool = Field(
        True,
        description="A natural 1 on an attack roll misses whatever the total (false: only the total counts).",
        json_schema_extra={"basis": "As for natural_20_hits: D&D 3E's rule, which the text does not change."},
    )
    confirm_criticals: bool = Field(
        True,
        description="A roll in the weapon's threat range is a critical only if a second roll would also hit "
        "(false: every threat is a critical).",
        json_schema_extra={
            "basis": "The text speaks of a critical threat that is confirmed (hurried, iterative and multi-weapon "
            "attacks) without saying how; D&D 3E's confirmation roll against the same defence is used."
        },
    )
    iterative_cap: Literal["bab", "none"] = Field(
        "bab",
        description="Beating the target number by 5s adds hits only up to the attacks the base attack bonus "
        "gives, 1 + (BAB - 1) // 5 in all, so BAB 1 to 5 adds none (none: no cap).",
        json_schema_extra={
            "basis": "The text gives one more hit for every 5 points the roll succeeds by, to characters 'who have "
            "iterative attacks'; in D&D 3E those are the attacks a base attack bonus gives, so they cap it."
        },
    )
    hurried_iterative_crits: Literal["first_pair", "first_only"] = Field(
        "first_pair",
        description="A hurried and iterative attack's confirmed critical makes the first hit and its hurried "
        "twin critical (first_only: the first hit alone).",
        json_schema_extra={
            "basis": "The text makes both hits of a hurried attack critical, and only the first of an iterative "
            "one; it is silent on the two together, and the first pair keeps both rules: the first iterative "
            "hit, which the hurry doubled."
        },
    )
    str_penalty_applies: bool = Field(
        True,
        description="A negative Strength modifier lowers damage as a bonus raises it (false: it is ignored).",
        json_schema_extra={
            "basis": "The text adds damage for each +1 of Strength bonus and says nothing of a penalty; D&D 3E "
            "subtracts it. Damage never falls below 1 either way (the text)."
        },
    )
    critical_damage: Literal["multiply_roll", "reroll_dice"] = Field(
        "multiply_roll",
        description="A critical multiplies the rolled weapon damage (reroll_dice: the weapon's dice are rolled "
        "as many times as the multiplier and added).",
        json_schema_extra={
            "basis": "The text: on a critical 'weapon damage is multiplied by the weapon's critical multiplier'; "
            "multiplying the roll is the plain reading, rolling again D&D 3E's. Strength and enhancement damage "
            "are multiplied, bonus damage never (the text)."
        },
    )
    disable_margin: int = Field(
        10,
        ge=1,
        description="Failing the injury save by this much or more also disables (a wound) or staggers (a "
        "nonlethal wound).",
        json_schema_extra={
            "basis": "The text says a failed save 'may' disable or stagger without saying when; the margin of 10 "
            "is that of the injury variant of D&D 3.5's Unearthed Arcana, which Potestas adapts."
        },
    )
    drop_margin: int | None = Field(
        None,
        ge=1,
        description="Failing the injury save by this much or more drops the target straight to dying (a wound) "
        "or unconscious (a nonlethal wound); off by default.",
        json_schema_extra={
            "basis": "Nothing in the text takes a character past disabled or staggered in one blow; a table that "
            "wants the variant's worst degree sets a margin."
        },
    )
    coup_de_grace_save: Literal["one_degree_worse", "standard"] = Field(
        "one_degree_worse",
        description="A coup de grace's save is one degree worse: a success counts as a failure, any failure as "
        "failing by the disable margin (standard: an ordinary save).",
        json_schema_extra={
            "basis": "The text: the target saves 'as normal, except the result of the save is worse than usual'; "
            "one degree worse is the least that always makes it worse. The blow is an automatic critical."
        },
    )
    save_naturals: Literal["standard", "off"] = Field(
        "standard",
        description="On an injury save a natural 20 succeeds and a natural 1 counts as failing by the disable "
        "margin (off: naturals are plain numbers).",
        json_schema_extra={
            "basis": "The text gives the save no natural rolls; D&D 3E's saves succeed on a natural 20 and fail on "
            "a 1, and here the failure that matters is one by the disable margin."
        },
    )
    dying_dc: Literal["10_plus_rounds", "10_plus_prior", "flat_10"] = Field(
        "10_plus_rounds",
        description="A dying save's DC: 10 + 1 for every round the character has been unconscious "
        "(10_plus_prior: + 1 for every dying save made since it began dying; flat_10: always 10).",
        json_schema_extra={
            "basis": "The text: 'a DC of 10 (+1 for each round you have been unconscious)'. Every round of the "
            "current spell of unconsciousness counts: each dying save, rounds knocked out by nonlethal wounds and "
            "rounds lying stable, so a stable character wounded back into dying goes on from its count. The "
            "ledger counts the rounds its events show (one a dying save, 10 a minute of rest spent unconscious, "
            "and those `dying-save --rounds N` declares), until the character wakes. Campaigns started before this "
            "reading keep 10_plus_prior, the earlier one, until the table changes it."
        },
    )
    dying_save_naturals: Literal["standard", "off"] = Field(
        "standard",
        description="On a dying save a natural 20 makes the character stable and a natural 1 leaves it dying "
        "(off: naturals are plain numbers).",
        json_schema_extra={
            "basis": "The text gives the dying save no natural rolls; as for every D&D 3E save, a 20 succeeds and a "
            "1 fails (under dying_failure=die_by_margin a 1 kills only if the margin does). Separate from "
            "save_naturals, which dying saves recorded before this setting followed."
        },
    )
    unconscious_nonlethal: Literal["no_effect", "knocked_out_only"] = Field(
        "no_effect",
        description="An unconscious character, dying and stable ones included, ignores further nonlethal wounds: "
        "recorded, they change nothing (knocked_out_only: only one knocked out by nonlethal wounds does).",
        json_schema_extra={
            "basis": "The text: when unconscious, 'additional nonlethal wounds have no effect on you', and a dying "
            "character is unconscious. Injuries recorded before this setting were derived as knocked_out_only."
        },
    )
    dying_failure: Literal["continue", "die_by_margin"] = Field(
        "continue",
        description="A failed dying save leaves the character dying (die_by_margin: failing by "
        "dying_death_margin or more kills it).",
        json_schema_extra={
            "basis": "The text says what a success does (stable) and not a failure; in it only another wound "
            "kills a dying character, so a failure changes nothing."
        },
    )
    dying_death_margin: int = Field(
        10,
        ge=1,
        description="Under dying_failure=die_by_margin, failing a dying save by this much or more kills.",
        json_schema_extra={
            "basis": "The text has no death by a failed save; 10 is the margin of a bad failure elsewhere in "
            "these rules (disable_margin)."
        },
    )
    wound_while_stable: Literal["dying", "dead"] = Field(
        "dying",
        description="A stable character who takes another wound is dying again (dead: it dies).",
        json_schema_extra={
            "basis": "The text: another wound kills a dying character, and a stable one is 'no longer dying', so "
            "a wound takes it one step down, back to dying."
        },
    )

    @field_validator("drop_margin", mode="before")
    @classmethod
    def _off_means_none(cls, value: object) -> object:
        return None if isinstance(value, str) and value.strip().lower() in ("off", "none", "") else value
