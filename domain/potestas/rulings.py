"""The table rulings of RULINGS.md section 1, one typed field per ruling key, defaults as written there."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ..model import Model


class Rulings(Model):
    """Campaign settings for Potestas; values given as strings (`disable_margin=8`) are validated here."""

    natural_20_hits: bool = Field(True, description="Attack: a natural 20 hits (standard 3E).")
    natural_1_misses: bool = Field(True, description="Attack: a natural 1 misses (standard 3E).")
    confirm_criticals: bool = Field(
        True, description="Attack: a threat becomes a critical only if a confirmation roll would hit (standard 3E)."
    )
    iterative_cap: Literal["bab", "none"] = Field(
        "bab", description="Iterative: extra hits capped at the attacker's iterative attacks, 1 + (BAB - 1) // 5."
    )
    hurried_iterative_crits: Literal["first_pair", "first_only"] = Field(
        "first_pair", description="Hurried + iterative: a confirmed critical applies to the first hit and its hurried twin."
    )
    str_penalty_applies: bool = Field(True, description="Damage: a negative Str modifier is a damage penalty (standard).")
    critical_damage: Literal["multiply_roll", "reroll_dice"] = Field(
        "multiply_roll", description="Critical: the rolled weapon damage is multiplied (or rolled multiplier times)."
    )
    disable_margin: int = Field(
        10, ge=1, description="Injury: failing the save by this much also disables (lethal) or staggers (nonlethal)."
    )
    drop_margin: int | None = Field(
        None, ge=1, description="Injury: failing by this much drops straight to dying/unconscious; off (None) by default."
    )
    coup_de_grace_save: Literal["one_degree_worse", "standard"] = Field(
        "one_degree_worse",
        description="Coup de grace: the save is worse than usual: success counts as failure, failure as failure by the disable margin.",
    )
    save_naturals: Literal["standard", "off"] = Field(
        "standard", description="Saves: a natural 20 succeeds, a natural 1 counts as failing by the disable margin."
    )
    dying_dc: Literal["10_plus_prior", "flat_10"] = Field(
        "10_plus_prior", description="Dying save DC: 10 + dying saves already made since the character began dying."
    )
    dying_failure: Literal["continue", "die_by_margin"] = Field(
        "continue", description="Dying save failure: still dying, or dead when failing by dying_death_margin or more."
    )
    dying_death_margin: int = Field(10, ge=1, description="Dying save: the failure margin that kills under die_by_margin.")
    wound_while_stable: Literal["dying", "dead"] = Field(
        "dying", description="A stable character who takes another wound starts dying again (or dies)."
    )

    @field_validator("drop_margin", mode="before")
    @classmethod
    def _off_means_none(cls, value: object) -> object:
        return None if isinstance(value, str) and value.strip().lower() in ("off", "none", "") else value
