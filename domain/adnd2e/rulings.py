"""The table rulings of AD&D 2E non-lethal combat, one typed field per ruling key: its default, its meaning and
the text it rests on (its basis). docs/rulings.md is made of them:
`python -m chronicle.cli.rulings_doc > docs/rulings.md`."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator

from ..dice import parse
from ..dice_rulings import LedgerRulings
from ..errors import BadInput


class Rulings(LedgerRulings):
    """AD&D 2E non-lethal combat (the article Non-Lethal Combat): hit points as in 2E, with damage that is real
    or temporary; armed non-lethal attacks, mugging, the sap, grabs and subdual."""

    # Decisions the text leaves open that are no setting (docs/rulings.md, "Decided without a key").
    DECISIONS: ClassVar[tuple[str, ...]] = (
        "An armed non-lethal or subdual attack deals half the rolled damage, rounded down, of which half (rounded "
        "down) is real and the rest temporary; a sap's real damage is a quarter, rounded down, and the rest "
        "temporary.",
        "Mugging needs a thief (the sheet's `class`) with a blunt melee weapon, and never oneself. Where the sheet "
        "is silent, a character is medium-sized, the victim as tall as the mugger, and backstab allowed.",
        "A round is a minute and a turn ten rounds, for knockouts and rest alike.",
        "An attack that hits deals its damage in the same command, in the mode its maneuver implies (normal: "
        "lethal; subdual, punch, wrestle, overbear and martial arts: subdual); bare hands deal 1d2, as the "
        "Player's Handbook's punch, since the article gives no number.",
        "On a tied grab the higher percentile wins, and a score without one counts as 0 (18/30 beats 18); other "
        "ties are rolled again, and the grab stays one attack.",
        "Grabbing a person one-handed, Strength 3 counts as 0. Grabbing a monster, the modifier halved for "
        "player-character races and demi-humans rounds toward zero: +1 against a smaller one, -3 against a "
        "larger.",
        "A monster's rough Strength (its largest damage, + 1 an extra attack, + 8 for a carrier) is used as "
        "computed, without a cap.",
        "An unknown armour class is 10 and an unknown THAC0 20 (a 0-level human), except a monster's under the "
        "ruling monster_thac0.",
    )

    temporary_unconscious: bool = Field(
        True,
        description="Real and temporary damage together at or over maximum hit points knock a character out "
        "(false: temporary damage never does); real damage alone kills (death_at).",
        json_schema_extra={
            "basis": "The text splits damage into real and temporary without saying what temporary damage does; "
            "in AD&D 2E's own temporary damage (punching and wrestling) reaching one's hit points knocks one out."
        },
    )
    temporary_recovery: int = Field(
        1,
        ge=0,
        description="Temporary hit points recovered per turn (10 rounds) of rest.",
        json_schema_extra={
            "basis": "The text: temporary damage 'heals as noted elsewhere'; in AD&D 2E's punching and wrestling "
            "it heals 1 point a turn."
        },
    )
    sap_knockout_rounds: str = Field(
        "2d8",
        description="The dice for how many rounds a sap's knockout lasts.",
        json_schema_extra={
            "values": "dice notation",
            "basis": "The text gives a sap's knockout no duration; it takes that of the mugging, the text's other "
            "knockout blow: 2d8 rounds.",
        },
    )
    real_recovery: int = Field(
        1,
        ge=0,
        description="Real hit points recovered per full day (24 hours) of rest.",
        json_schema_extra={
            "basis": "The text is silent; 1 point a day is natural healing in the AD&D 2E Player's Handbook."
        },
    )
    death_at: int = Field(
        0,
        le=0,
        description="A character dies when its maximum hit points minus real damage are at or below this; 0, or "
        "-10 for AD&D 2E's optional rule (between it and 0 the character is unconscious).",
        json_schema_extra={"basis": "The text is silent; death at 0 is standard AD&D 2E, at -10 its optional rule."},
    )
    helmets_tracked: bool = Field(
        False,
        description="Whether the campaign details helmets: if it does, a mugged victim with a bare head has AC 10.",
        json_schema_extra={
            "basis": "The text: 'If helmets are detailed in the campaign, the victim has AC 10 unless the head is "
            "protected'. Few campaigns detail them, so it is off until a table says so."
        },
    )
    uncontrolled_nonlethal: bool = Field(
        False,
        description="Whether blunt and piercing-only melee weapons may make armed non-lethal and subdual attacks "
        "(false: only edged weapons, the blade turned). Missiles never may.",
        json_schema_extra={
            "basis": "The text allows only a weapon whose damage can be controlled: impossible with an arrow or a "
            "sling, 'or even a war hammer or mace', possible with swords and axes whose blade can be turned. A "
            "table that lets a club or a spear's butt pull its blows sets it to true."
        },
    )
    save_above_20: Literal["natural_20", "impossible"] = Field(
        "natural_20",
        description="A mugging save raised above 20 is still made on a natural 20 (impossible: the victim cannot "
        "save, and only the knockout dice are rolled).",
        json_schema_extra={
            "basis": "The text raises the save by the level difference with no limit (its t9 thief against a 4 HD "
            "ogre: 12 becomes 17); tables commonly let a natural 20 save whatever is needed."
        },
    )
    partial_hit_dice: Literal["floor", "up"] = Field(
        "floor",
        description="In the mugging save's level difference, hit dice such as 4+4 or 1/2 count as their whole "
        "dice, rounded down: 4 and 0 (up: one die more, 5 and 1).",
        json_schema_extra={
            "basis": "The text counts 'the difference in level or hit dice' and its example has whole dice; "
            "rounding down is how every figure of these rules rounds."
        },
    )

    monster_thac0: Literal["hit_dice", "twenty"] = Field(
        "hit_dice",
        description="A monster whose sheet gives hit dice but no THAC0 (and no level) attacks with the THAC0 of "
        "its hit dice: 1 or 2 dice 19, 3 or 4 17, 5 or 6 15, and so on 2 better every 2 dice to 5 at 15 dice or "
        "more; 3 or more extra hit points (4+3) count one die more; 1/2 die 20 (twenty: 20, as an unknown THAC0).",
        json_schema_extra={
            "basis": "The text gives no THAC0; the AD&D 2E Dungeon Master's Guide, Table 39 (Creature THAC0), gives "
            "a monster's by its hit dice, counting another die for three or more points added to them. Attacks "
            "recorded before this ruling keep 20."
        },
    )

    @field_validator("sap_knockout_rounds")
    @classmethod
    def _dice_notation(cls, value: str) -> str:
        try:
            parse(value)
        except BadInput as error:
            raise ValueError(str(error)) from None
        return value
