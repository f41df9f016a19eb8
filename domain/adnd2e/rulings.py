"""The campaign settings of AD&D 2E non-lethal combat (RULINGS.md section 2), one field per ruling key."""

from __future__ import annotations

from pydantic import Field, field_validator

from ..dice import parse
from ..errors import BadInput
from ..model import Model


class Rulings(Model):
    temporary_unconscious: bool = Field(
        True,
        description="Real plus temporary damage at or over max hp knocks a character out (RULINGS.md 2; standard).",
    )
    temporary_recovery: int = Field(
        1, ge=0, description="Temporary hp recovered per turn (10 rounds) of rest (RULINGS.md 2; standard)."
    )
    sap_knockout_rounds: str = Field(
        "2d8", description="Dice rolled for how many rounds a sap knockout lasts (RULINGS.md 2; the seed's mugging figure)."
    )
    real_recovery: int = Field(
        1,
        ge=0,
        description="Gap: real hp recovered per full day (24 hours) of rest; the seed is silent, 1 is the 2E PHB's natural healing.",
    )
    death_at: int = Field(
        0,
        le=0,
        description=(
            "Gap: a character dies when max hp minus real damage is at or below this; 0 is standard, "
            "-10 the 2E optional rule (between it and 0 the character is unconscious)."
        ),
    )
    helmets_tracked: bool = Field(
        False,
        description="Gap: whether the campaign details helmets; if so a mugged victim with a bare head has AC 10 (seed, Mugging).",
    )

    @field_validator("sap_knockout_rounds")
    @classmethod
    def _dice_notation(cls, value: str) -> str:
        try:
            parse(value)
        except BadInput as error:
            raise ValueError(str(error)) from None
        return value
