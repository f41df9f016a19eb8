"""The campaign settings of AD&D 2E non-lethal combat (RULINGS.md section 2), one field per ruling key.

Rulings this module adds where the seed is silent (issue 22), each a campaign setting with its key:

- `uncontrolled_nonlethal` (default false): an armed non-lethal or subdual attack needs a weapon whose damage
  can be controlled, "swords and axes as long as the blade can be turned" (seed, Weapons in attack): an edged
  melee weapon. Blunt weapons (the seed names the war hammer and mace) and piercing-only weapons (spear,
  dagger) are refused; a table that lets a club or a spear butt pull its blows sets it to true. Missile
  weapons (the seed's arrow and sling) are refused whatever it says.
- `save_above_20` (default `natural_20`): a mugged victim whose save is raised above 20 by the level
  difference still saves on a natural 20, as tables commonly let every save; `impossible`: the victim cannot
  save and no die is rolled (the knockout dice are).
- `partial_hit_dice` (default `floor`): hit dice written with a plus (`4+4`) or below one (`1/2`) count,
  in the mugging save's level difference, as their whole dice rounded down (4+4 counts 4, 1/2 counts 0),
  as the rulings round everywhere; `up`: a plus or a fraction counts one die more (4+4 counts 5, 1/2 counts 1).
"""

from __future__ import annotations

from typing import Literal

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
        "2d8",
        description="Dice rolled for how many rounds a sap knockout lasts (RULINGS.md 2; the seed's mugging figure).",
    )
    real_recovery: int = Field(
        1,
        ge=0,
        description=(
            "Gap: real hp recovered per full day (24 hours) of rest; the seed is silent, 1 is the 2E PHB's "
            "natural healing."
        ),
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
        description=(
            "Gap: whether the campaign details helmets; if so a mugged victim with a bare head has AC 10 "
            "(seed, Mugging)."
        ),
    )
    uncontrolled_nonlethal: bool = Field(
        False,
        description=(
            "Gap: whether blunt and piercing-only melee weapons may make armed non-lethal and subdual attacks; "
            "the seed allows only weapons whose damage can be controlled (swords and axes, blade turned). "
            "Missiles never may."
        ),
    )
    save_above_20: Literal["natural_20", "impossible"] = Field(
        "natural_20",
        description=(
            "Gap: a mugging save raised above 20 is still made on a natural 20 (natural_20), "
            "or cannot be made at all and is not rolled (impossible)."
        ),
    )
    partial_hit_dice: Literal["floor", "up"] = Field(
        "floor",
        description=(
            "Gap: hit dice such as 4+4 or 1/2 count as their whole dice rounded down in the mugging save's level "
            "difference (floor: 4 and 0), or one die more (up: 5 and 1)."
        ),
    )

    @field_validator("sap_knockout_rounds")
    @classmethod
    def _dice_notation(cls, value: str) -> str:
        try:
            parse(value)
        except BadInput as error:
            raise ValueError(str(error)) from None
        return value
