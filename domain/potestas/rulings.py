"""The table rulings of RULINGS.md section 1, one typed field per ruling key, defaults as written there."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ..model import Model


class Rulings(Model):
    """Campaign settings for Potestas; values given as strings (`disable_margin=8`) are validated here.

    Rulings added for issue 22 (the text for docs/RULINGS.md, section 1, Condition ladder):

    - `dying_dc` = `10_plus_rounds`: "DC of 10 (+1 for each round you have been unconscious)" counts every
      round of the current spell of unconsciousness: each dying save is a round, rounds knocked out by
      nonlethal wounds or lying stable count, and a stable character wounded back into dying goes on from
      its count instead of starting again at 10. The ledger knows the rounds its events show: one per dying
      save, 10 per minute of a rest spent unconscious, and the rounds a `dying-save --rounds N` declares
      passed unrecorded before it. The count ends when the character is conscious again. Campaigns started
      before this value existed keep `10_plus_prior` (DC 10 + dying saves made since it began dying) until a
      `campaign rule dying_dc=10_plus_rounds`.
    - `dying_save_naturals` = `standard`: the seed gives no naturals for the dying save; as for every 3E
      saving throw, a natural 20 succeeds (stable) and a natural 1 fails (still dying; under
      `dying_failure=die_by_margin` it kills only if the margin does). `off`: naturals are plain numbers.
      Separate from the injury save's `save_naturals`; dying saves recorded before it existed used that one.
    - `unconscious_nonlethal` = `no_effect`: "Unconscious: additional nonlethal wounds have no effect", and a
      dying or stable character is unconscious, so a nonlethal wound to one is ignored (no wound, no
      staggering). `knocked_out_only` is how injuries recorded before this ruling were derived.
    """

    enhancement_to_hit: bool = Field(
        True,
        description="Attack: a weapon's enhancement bonus adds to its attack bonus (standard 3E; the seed's Ivanior "
        "example counts it). false: it adds to damage only, and a weapon's given attack bonus is taken without it.",
    )
    natural_20_hits: bool = Field(True, description="Attack: a natural 20 hits (standard 3E).")
    natural_1_misses: bool = Field(True, description="Attack: a natural 1 misses (standard 3E).")
    confirm_criticals: bool = Field(
        True, description="Attack: a threat becomes a critical only if a confirmation roll would hit (standard 3E)."
    )
    iterative_cap: Literal["bab", "none"] = Field(
        "bab", description="Iterative: extra hits capped at the attacker's iterative attacks, 1 + (BAB - 1) // 5."
    )
    hurried_iterative_crits: Literal["first_pair", "first_only"] = Field(
        "first_pair",
        description="Hurried + iterative: a confirmed critical applies to the first hit and its hurried twin.",
    )
    str_penalty_applies: bool = Field(
        True, description="Damage: a negative Str modifier is a damage penalty (standard)."
    )
    critical_damage: Literal["multiply_roll", "reroll_dice"] = Field(
        "multiply_roll", description="Critical: the rolled weapon damage is multiplied (or rolled multiplier times)."
    )
    disable_margin: int = Field(
        10, ge=1, description="Injury: failing the save by this much also disables (lethal) or staggers (nonlethal)."
    )
    drop_margin: int | None = Field(
        None,
        ge=1,
        description="Injury: failing by this much drops straight to dying/unconscious; off (None) by default.",
    )
    coup_de_grace_save: Literal["one_degree_worse", "standard"] = Field(
        "one_degree_worse",
        description=(
            "Coup de grace: the save is worse than usual: success counts as failure, failure as failure by the "
            "disable margin."
        ),
    )
    save_naturals: Literal["standard", "off"] = Field(
        "standard", description="Saves: a natural 20 succeeds, a natural 1 counts as failing by the disable margin."
    )
    dying_dc: Literal["10_plus_rounds", "10_plus_prior", "flat_10"] = Field(
        "10_plus_rounds",
        description="Dying save DC: 10 + every round the character has been unconscious (10_plus_prior: + dying saves "
        "made since it began dying, the engine's reading before issue 22; flat_10: always 10).",
    )
    dying_save_naturals: Literal["standard", "off"] = Field(
        "standard", description="Dying saves: a natural 20 makes the character stable, a natural 1 leaves it dying."
    )
    unconscious_nonlethal: Literal["no_effect", "knocked_out_only"] = Field(
        "no_effect",
        description="Any unconscious character (dying and stable included) ignores further nonlethal wounds "
        "(knocked_out_only: only one knocked out by nonlethal wounds, as events before issue 22 were derived).",
    )
    dying_failure: Literal["continue", "die_by_margin"] = Field(
        "continue", description="Dying save failure: still dying, or dead when failing by dying_death_margin or more."
    )
    dying_death_margin: int = Field(
        10, ge=1, description="Dying save: the failure margin that kills under die_by_margin."
    )
    wound_while_stable: Literal["dying", "dead"] = Field(
        "dying", description="A stable character who takes another wound starts dying again (or dies)."
    )

    @field_validator("drop_margin", mode="before")
    @classmethod
    def _off_means_none(cls, value: object) -> object:
        return None if isinstance(value, str) and value.strip().lower() in ("off", "none", "") else value
