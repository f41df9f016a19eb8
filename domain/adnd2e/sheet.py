"""The AD&D 2E character sheet: the stats the non-lethal rules read (docs/scripting.md, Characters and systems)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import (
    AliasChoices,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_serializer,
    field_validator,
    model_serializer,
)

from ..errors import BadInput, in_words
from ..limits import typed_within_int64
from ..model import Model
from ..spelling import nearest
from .weapons import SPEC_HELP, Weapon, parse_weapons

SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
# Player-character races and demi-humans halve the grab size modifier (seed, Grabbing a monster).
PLAYER_RACES = frozenset({"human", "elf", "half-elf", "dwarf", "gnome", "halfling", "half-orc"})
INTEGER_STATS = ("hp", "level", "dex", "ac", "height", "thac0", "shield", "petrification")
MAX_STRENGTH = 9999  # a monster's rough Strength has no cap (seed, Grabbing a monster); this bounds what is typed
# The 2E classes (PHB chapter 3); a multi-class demi-human joins them with "/" (fighter/thief).
CLASSES = (
    "fighter",
    "paladin",
    "ranger",
    "mage",
    "specialist",
    "illusionist",
    "cleric",
    "druid",
    "priest",
    "thief",
    "bard",
)
NEWER_FIELDS: dict[str, object] = {"class": None, "weapons": [], "petrification": None}  # absent from older sheets
_STRENGTH = re.compile(r"(\d+)(?:/(\d\d|100))?")
_HIT_DICE = re.compile(r"(\d{1,4})(?:\s*\+\s*(\d{1,4}))?|1/2|½")
_INTEGER = re.compile(r"[+-]?\d+")


class Strength(Model):
    """A Strength score; `percentile` is exceptional Strength (18/01..18/00, stored 1..100). A monster's
    rough Strength may pass 25 (3-30/2-20/2-20 is 32), and a one-handed 3 counts as 0."""

    score: int = Field(ge=0, le=MAX_STRENGTH)
    percentile: int | None = Field(None, ge=1, le=100)

    @classmethod
    def parse(cls, text: str) -> Strength:
        match = _STRENGTH.fullmatch(text.strip())
        if not match:
            raise ValueError(f"Strength must look like 14 or 18/76, not {text!r}")
        score, percentile = int(match[1][:6]), match[2]
        if score > MAX_STRENGTH:
            raise ValueError(f"a Strength above {MAX_STRENGTH} is out of range, not {match[1]}")
        if percentile is None:
            return cls(score=score)
        if score != 18:
            raise ValueError("only a Strength of 18 has a percentile")
        return cls(score=18, percentile=int(percentile) or 100)

    def __str__(self) -> str:
        if self.percentile is None:
            return str(self.score)
        return f"18/{self.percentile % 100:02d}"


def one_handed(strength: Strength) -> Strength:
    """Strength grabbing a person one-handed: 3 lower, exceptional scores by the seed's table."""
    if strength.percentile is None:
        return Strength(score=max(strength.score - 3, 0))  # 15 becomes 12, 3 becomes 0
    p = strength.percentile
    if p == 100:
        return Strength(score=18, percentile=51)
    if p >= 91:
        return Strength(score=18, percentile=1)
    return Strength(score=18 if p >= 76 else 17 if p >= 51 else 16)


def size_rank(size: str) -> int:
    return SIZES.index(size)


# Defensive adjustment by Dexterity (2E PHB Table 2): lost when mugged.
_DEX_AC = {3: -4, 4: -3, 5: -2, 6: -1, 15: 1, 16: 2, 17: 3, 18: 4, 19: 4, 20: 4, 21: 5, 22: 5, 23: 5, 24: 6, 25: 6}


def dex_ac_bonus(dex: int | None) -> int:
    """AC points the Dexterity adjustment gives (positive improves AC)."""
    return _DEX_AC.get(dex, 0) if dex is not None else 0


class Sheet(Model):
    model_config = ConfigDict(extra="forbid", frozen=True, validate_by_name=True, serialize_by_alias=True)

    hp: int | None = Field(None, ge=1, description="Maximum hit points.")
    level: int | None = Field(None, ge=0)
    hd: int | str | None = Field(None, description="Hit dice, for monsters: 4, 4+4 or 1/2 (also written ½).")
    strength: Strength | None = Field(None, validation_alias=AliasChoices("str", "strength"), serialization_alias="str")
    dex: int | None = Field(None, ge=1, le=25)
    ac: int | None = Field(None, ge=-10, le=10)
    thac0: int | None = Field(None, ge=1, le=25)
    shield: int = Field(0, ge=0, description="AC points the shield gives (lost when mugged).")
    height: int | None = Field(None, ge=1, description="Height in inches (the mugger's height if unknown).")
    size: Size = "medium"
    backstab: bool = Field(True, description="Whether a backstab (hence a mugging) is possible against it.")
    race: str = Field("human", description="A player race (human, elf, ...) or anything else for a monster.")
    helmet: bool = Field(True, description="Whether the head is protected (matters if helmets are tracked).")
    character_class: str | None = Field(
        None,
        validation_alias=AliasChoices("class", "character_class"),
        serialization_alias="class",
        description="The class, or classes joined by / (fighter/thief); only a thief may mug.",
    )
    weapons: tuple[Weapon, ...] = Field((), description="The weapons `--weapon NAME` chooses from.")
    petrification: int | None = Field(
        None, ge=1, le=20, description="The save vs petrification it needs (the table's save charts): mug's base."
    )

    @field_validator("character_class", mode="before")
    @classmethod
    def _class_names(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        names = [name.strip().lower() for name in value.split("/")]
        unknown = [name for name in names if name not in CLASSES]
        if unknown:
            raise ValueError(f"unknown class {unknown[0]!r}: choose from {', '.join(CLASSES)} (fighter/thief for two)")
        return "/".join(names)

    @field_validator("weapons", mode="before")
    @classmethod
    def _weapon_specs(cls, value: object) -> object:
        return parse_weapons(value) if isinstance(value, str) else value

    @field_validator("strength", mode="before")
    @classmethod
    def _parse_strength(cls, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            return Strength(score=value)
        return Strength.parse(value) if isinstance(value, str) else value

    @field_validator("hd", mode="before")
    @classmethod
    def _hit_dice(cls, value: object) -> object:
        """Whole hit dice stay a number (as older sheets stored them); 4+4 and 1/2 are kept as written."""
        if isinstance(value, bool) or value is None:
            return value
        text = str(value).strip()
        match = _HIT_DICE.fullmatch(text)
        if not match and re.fullmatch(r"\d+(\s*\+\s*\d+)?", text):
            raise ValueError(f"hit dice of more than 9999 are out of range, not {text}")
        if not match:
            raise ValueError(f"hit dice look like 4, 4+4 or 1/2, not {text!r}")
        if match[1] is None:
            return "1/2"
        return int(match[1]) if match[2] is None else f"{int(match[1])}+{int(match[2])}"

    @field_validator("size", mode="before")
    @classmethod
    def _size_word(cls, value: object) -> object:
        if isinstance(value, str):
            word = value.strip().lower()
            return next((s for s in SIZES if s[0] == word), word)  # T/S/M/L/H/G as in the Monstrous Manual
        return value

    @model_serializer(mode="wrap")
    def _without_unset_newer_fields(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """A sheet without a class or weapons dumps as sheets did before they had them: an amendment
        stores the sheet's dump and `verify` compares it with a fresh one."""
        dumped: dict[str, object] = handler(self)
        for key, empty in NEWER_FIELDS.items():
            if key in dumped and dumped[key] == empty:
                del dumped[key]
        return dumped

    @field_serializer("strength")
    def _strength_text(self, strength: Strength | None) -> str | None:
        return None if strength is None else str(strength)

    @property
    def rank(self) -> int:
        """Level, or whole hit dice for a monster (4+4 counts 4, 1/2 counts 0)."""
        return self.ranked(round_up=False)

    def ranked(self, round_up: bool) -> int:
        """Level, or hit dice for a monster (the mugging save modifier); `round_up` (ruling partial_hit_dice=up)
        counts a plus or a fraction as one die more."""
        if self.level is not None:
            return self.level
        if isinstance(self.hd, int) or self.hd is None:
            return self.hd or 0
        if self.hd == "1/2":
            return 1 if round_up else 0
        return int(self.hd.split("+")[0]) + (1 if round_up else 0)

    @property
    def player_race(self) -> bool:
        return self.race in PLAYER_RACES

    @property
    def classes(self) -> tuple[str, ...]:
        return tuple(self.character_class.split("/")) if self.character_class else ()

    def weapon(self, name: str) -> Weapon | None:
        """The sheet's weapon called `name` (any case), if it has one."""
        return next((weapon for weapon in self.weapons if weapon.named(name)), None)

    def wielded(self, name: str | None, who: str) -> Weapon | None:
        """The weapon `--weapon NAME` names, which must be on the sheet; None for bare hands."""
        if name is None:
            return None
        weapon = self.weapon(name)
        if weapon is None:
            has = ", ".join(w.name for w in self.weapons) or "none"
            raise BadInput(f"{who} has no weapon {name!r} on its sheet (it has: {has}); add it with --stat {SPEC_HELP}")
        return weapon


def hit_dice_thac0(hd: int | str | None) -> int:
    """A monster's THAC0 by its hit dice, the Dungeon Master's Guide's Table 39 (2E): 1 and 2 dice 19, 3 and 4
    17, ... 15 and 16 or more 5; a plus of 3 or more hit points counts one die more; 1/2 (and none) 20."""
    if hd is None or hd == "1/2":
        return 20
    if isinstance(hd, int):
        dice = hd
    else:
        whole, _, plus = hd.partition("+")
        dice = int(whole) + (1 if plus and int(plus) >= 3 else 0)
    if dice <= 0:
        return 20
    return max(21 - 2 * ((min(dice, 16) + 1) // 2), 5)


def thac0_of(sheet: Sheet, by_hit_dice: bool) -> tuple[int, str]:
    """The THAC0 an attack by (or a strike of) the character with `sheet` uses, and where it comes from: its
    sheet's; a monster's (hit dice, no level) by Table 39 when `by_hit_dice` (ruling monster_thac0); else 20,
    a 0-level human's."""
    if sheet.thac0 is not None:
        return sheet.thac0, "sheet"
    if by_hit_dice and sheet.level is None and sheet.hd is not None:
        return hit_dice_thac0(sheet.hd), "hit_dice"
    return 20, "default"


ALIASES = {"strength": "str", "character_class": "class"}


def parse_sheet(stats: dict[str, str], kind: str = "character") -> Sheet:
    """Build a sheet from `--stat KEY=VALUE` strings; unknown keys and non-integers are `BadInput`."""
    known = [ALIASES.get(name, name) for name in Sheet.model_fields]
    unknown = sorted(set(stats) - set(known))
    if unknown:
        near = nearest(unknown[0], known)
        hint = f"did you mean {near!r}? The keys are" if near else "known are"
        raise BadInput(f"unknown adnd2e stat {unknown[0]!r}: {hint} {', '.join(known)}")
    for part in re.split(r"[+/]", str(stats.get("hd", ""))):  # hit dice are whole numbers too (4+4)
        typed_within_int64(part.strip(), "stat hd")
    for key in INTEGER_STATS:
        if key in stats and not _INTEGER.fullmatch(str(stats[key]).strip()):
            raise BadInput(f"stat {key}={stats[key]!r} must be an integer")
        if key in stats:
            typed_within_int64(stats[key], f"stat {key}")
    # Without a race: hit dice and no level mark a monster, anything else a human.
    monster = kind != "character" or ("hd" in stats and "level" not in stats)
    values: dict[str, object] = {"race": "monster" if monster else "human", **stats}
    if isinstance(values["race"], str):
        values["race"] = values["race"].strip().lower()
    try:
        return Sheet.model_validate(values)
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(part) for part in first["loc"][:1]) or "stat"
        raise BadInput(f"stat {key}={stats.get(key, '')!r}: {in_words(first)}") from None


_MEANINGS = {
    "level": "Level (a character); a monster gives hd instead.",
    "str": "Strength, 14 or 18/76.",
    "dex": "Dexterity (its AC adjustment is lost when mugged).",
    "ac": "Armour class, 10 to -10 (10 when not given).",
    "thac0": "THAC0 (else a monster's by its hit dice, or 20).",
    "size": "tiny, small, medium, large, huge or gargantuan (T, S, M, L, H, G).",
    "weapons": "Weapons, " + SPEC_HELP.removeprefix("weapons=") + ".",
}


def sheet_keys() -> list[dict[str, str]]:
    """The keys `character add --stat KEY=VALUE` (and a sheet file) takes, each with its meaning."""
    found = []
    for name, field in Sheet.model_fields.items():
        key = ALIASES.get(name, name)
        found.append({"key": key, "for": "character", "meaning": _MEANINGS.get(key) or field.description or key})
    return found
