"""One weapon and its command-line spec (docs/rulings.md, Potestas, Attack and Damage): the properties the rules read.

A spec is `NAME:PART,PART,...`; parts are `attack=N`, `damage=D` (a number or dice notation),
`enhancement=N`, `threat=N`, `multiplier=N`, `types=a+b` (damage types and qualities that may overcome
DR), and the bare flags `light`, `two_handed`, `ranged`, `thrown`, `unarmed`, `nonlethal`. A thrown
weapon is a ranged attack (range penalty, soft cover, Dex to hit) that still adds Str damage. An unarmed
strike is a light weapon (seed, Unarmed Fighting: "Unarmed strikes are considered light weapons").
"""

from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from ..dice import parse
from ..errors import BadInput, in_words
from ..limits import typed_within_int64
from ..model import Model
from .damage import damage_type

WEAPON_FLAGS = {
    "light": ("size", "light"),
    "two_handed": ("size", "two_handed"),
    "ranged": ("ranged", True),
    "thrown": ("thrown", True),
    "unarmed": ("unarmed", True),
    "nonlethal": ("nonlethal", True),
}
NUMBERS = ("attack", "damage", "enhancement", "threat", "multiplier")


class Weapon(Model):
    name: str = "weapon"
    attack: int | None = Field(
        None, description="This weapon's usual attack bonus, if known; else BAB + ability + size + enhancement."
    )
    damage: str = Field("1", description="Weapon damage: a number (Potestas: 1-6 for Medium weapons) or dice notation.")
    enhancement: int = Field(0, ge=0, description="+1 damage per +1 enhancement (per weapon).")
    size: Literal["light", "one_handed", "two_handed"] = Field(
        "one_handed", description="3E size category: a light weapon (dagger) is not one-handed."
    )
    ranged: bool = Field(False, description="A ranged attack: range penalty, soft cover, Dex to hit (thrown sets it).")
    thrown: bool = Field(False, description="Thrown weapons and slings add Str damage although ranged.")
    threat: int = Field(20, ge=2, le=20, description="Lowest natural roll that threatens (19 for 19-20).")
    multiplier: int = Field(2, ge=2, description="Critical multiplier.")
    nonlethal: bool = Field(False, description="Usually deals nonlethal damage (unarmed strikes always do).")
    unarmed: bool = False
    types: tuple[str, ...] = Field((), description="Damage types and qualities that may overcome DR.")

    @model_validator(mode="before")
    @classmethod
    def _unarmed_is_light(cls, data: Any) -> Any:
        """An unarmed strike given without a size is light. A size stated is kept: events recorded before
        this rule hold their unarmed strikes as one-handed, and re-derive as they were decided."""
        if isinstance(data, dict) and data.get("unarmed") and "size" not in data:
            return {**data, "size": "light"}
        return data

    @field_validator("damage")
    @classmethod
    def _notation(cls, value: str) -> str:
        parse(value)
        return value

    @field_validator("types")
    @classmethod
    def _known_types(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(damage_type(v) for v in value)

    @property
    def usual_nonlethal(self) -> bool:
        return self.unarmed or self.nonlethal

    @property
    def adds_strength(self) -> bool:
        return not self.ranged or self.thrown

    def spec(self) -> str:
        """The command-line spec that reads back as this weapon."""
        parts = [f"attack={self.attack}"] if self.attack is not None else []
        parts.append(f"damage={self.damage}")
        parts += [
            f"{key}={getattr(self, key)}"
            for key, usual in (("enhancement", 0), ("threat", 20), ("multiplier", 2))
            if getattr(self, key) != usual
        ]
        if self.size != "one_handed":
            parts.append(self.size)
        parts += [
            flag
            for flag in ("ranged", "thrown", "unarmed", "nonlethal")
            if getattr(self, flag) and not (flag == "ranged" and self.thrown)
        ]
        if self.types:
            parts.append("types=" + "+".join(self.types))
        return f"{self.name}:{','.join(parts)}"


def parse_weapon(text: str) -> Weapon:
    """`rapier:attack=15,damage=3,enhancement=3,threat=18,types=piercing+silver` plus bare flags; anything
    wrong is bad input. `thrown` makes the weapon ranged too (thrown counts as ranged)."""
    name, _, spec = text.partition(":")
    values: dict[str, object] = {"name": name.strip() or "weapon"}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        key, has_value, value = item.partition("=")
        key = key.strip().lower()
        if not has_value and key in WEAPON_FLAGS:
            field, flag = WEAPON_FLAGS[key]
            values[field] = flag
        elif has_value and key == "types":
            values["types"] = tuple(value.split("+"))
        elif has_value and key in NUMBERS:
            typed_within_int64(value, f"weapon {values['name']!r}: {key}")
            values[key] = value.strip()
        else:
            raise BadInput(f"weapon {text!r}: unknown part {item!r}")
    if values.get("thrown"):
        values["ranged"] = True
    if values.get("unarmed") and values.get("size") == "two_handed":
        raise BadInput(f"weapon {text!r}: unarmed strikes are light weapons, never two-handed")
    try:
        return Weapon.model_validate(values)
    except ValidationError as error:
        problem = error.errors()[0]
        raise BadInput(f"weapon {text!r}: {'.'.join(map(str, problem['loc']))} {in_words(problem)}") from None
