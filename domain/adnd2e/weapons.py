"""The weapons on an AD&D 2E sheet, with the properties the non-lethal rules read (seed, Weapons in attack,
Mugging, Sap): blunt, edged or piercing, missile or melee, size and damage."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationError, field_validator

from ..dice import parse
from ..errors import BadInput, in_words
from ..limits import typed_within_int64
from ..model import Model

WeaponKind = Literal["blunt", "edged", "piercing"]
WeaponSize = Literal["small", "medium", "large"]
KINDS = ("blunt", "edged", "piercing")
SIZES = ("small", "medium", "large")
SPEC_HELP = (
    "weapons=NAME:PARTS;NAME:PARTS..., each PARTS a comma-separated list of blunt, edged or piercing (one is needed), "
    "missile, small/medium/large (or size=...), damage=DICE and magic=N; "
    "e.g. weapons='club:blunt,small,damage=1d6;long sword:edged,damage=1d8;short bow:piercing,missile,damage=1d6'"
)


class Weapon(Model):
    name: str = Field(min_length=1)
    kind: WeaponKind = Field(description="blunt (club, mace), edged (sword, axe) or piercing only (spear, arrow).")
    missile: bool = Field(False, description="Shot or thrown (bow, crossbow, sling, dart): never a sap or a mugging.")
    size: WeaponSize = "medium"
    damage: str | None = Field(None, description="Damage dice against man-sized foes, e.g. 1d8.")
    magic: int = Field(0, ge=0, description="The magic bonus, which a sap does not count.")

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                parse(value)
            except BadInput as error:
                raise ValueError(str(error)) from None
        return value

    def named(self, name: str) -> bool:
        return self.name.casefold() == name.strip().casefold()


def parse_weapon(text: str) -> Weapon:
    """`club:blunt,small,damage=1d6`: the name, then its parts; anything wrong is bad input naming it."""
    name, _, spec = text.partition(":")
    values: dict[str, object] = {"name": name.strip()}
    for part in filter(None, (item.strip().lower() for item in spec.split(","))):
        key, has_value, value = (piece.strip() for piece in part.partition("="))
        if not has_value and key in KINDS:
            if "kind" in values:
                raise BadInput(f"weapon {text!r}: name one of blunt, edged or piercing, not two")
            values["kind"] = key
        elif not has_value and key in SIZES:
            values["size"] = key
        elif not has_value and key == "missile":
            values["missile"] = True
        elif has_value and key in ("size", "damage", "magic"):
            typed_within_int64(value, f"weapon {values['name']!r}: {key}")
            values[key] = value
        else:
            raise BadInput(f"weapon {text!r}: unknown part {part!r} ({SPEC_HELP})")
    if "kind" not in values:
        raise BadInput(f"weapon {text!r}: say whether it is blunt, edged or piercing")
    try:
        return Weapon.model_validate(values)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(map(str, problem["loc"]))
        raise BadInput(f"weapon {text!r}: {where} {in_words(problem)}") from None


def parse_weapons(text: str) -> tuple[Weapon, ...]:
    """`;`-separated weapon specs; two weapons of one name are bad input (`--weapon` names one)."""
    weapons = tuple(parse_weapon(spec) for spec in text.split(";") if spec.strip())
    names = [weapon.name.casefold() for weapon in weapons]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise BadInput(f"two weapons are named {repeated[0]!r}: give each its own name")
    return weapons
