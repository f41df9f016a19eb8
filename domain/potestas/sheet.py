"""The Potestas sheet: a character's or an object's fixed numbers (docs/scripting.md, Characters and systems)."""

from typing import Literal

from pydantic import ConfigDict, Field, field_validator

from ..errors import BadInput
from ..limits import typed_within_int64
from ..model import Model
from ..spelling import nearest
from .damage import DamageReduction
from .weapon import Weapon, parse_weapon

CHARACTER_KEYS = ("fort", "dr", "bab", "str", "dex", "defence", "size", "weapons")
OBJECT_KEYS = ("fort", "hardness", "thickness", "holder_fort", "defence", "size")


def modifier(score: int) -> int:
    """The 3E ability modifier: (score - 10) // 2."""
    return (score - 10) // 2


class Sheet(Model):
    model_config = ConfigDict(
        extra="forbid", frozen=True, serialize_by_alias=True, validate_by_name=True, validate_by_alias=True
    )

    kind: Literal["character", "object"] = "character"
    fort: int = Field(0, description="Fortitude bonus; for an object its base save (+0 mundane, given for magic).")
    dr: str = Field("0", description="Damage reduction, `5` (= 5/-) or `5/silver`.")
    bab: int = Field(0, description="Base attack bonus.")
    strength: int = Field(10, alias="str", description="Strength score.")
    dex: int = Field(10, description="Dexterity score.")
    defence: int = Field(0, description="Defence bonus (base + Dex + size + armour + shield); hit on 10 + it.")
    size: int = Field(0, description="Size modifier.")
    hardness: int = Field(
        0, ge=0, description="Object hardness: like DR against all damage (wood 5, stone 8, steel 10)."
    )
    thickness: int = Field(1, ge=1, description="Object thickness in inches; +1 save per inch beyond the first.")
    holder_fort: int | None = Field(None, description="An attended object's holder's Fortitude, used if better.")
    weapons: tuple[Weapon, ...] = Field(
        (), description="The weapons carried: `--weapon NAME` picks one; the first is used when none is named."
    )

    @field_validator("weapons", mode="before")
    @classmethod
    def _specs_to_weapons(cls, value: object) -> object:
        """Sheets recorded before weapons were models hold command-line specs: read them as weapons.
        An unarmed strike is light (seed, Unarmed Fighting), also on a sheet recorded before the ledger
        said so; the attacks recorded then keep the weapons they copied in."""
        if isinstance(value, (list, tuple)):
            return tuple(_light_if_unarmed(parse_weapon(item) if isinstance(item, str) else item) for item in value)
        return value

    @field_validator("dr", mode="before")
    @classmethod
    def _normalise_dr(cls, value: object) -> str:
        return str(DamageReduction.parse(str(value), typed=False))  # `parse_sheet` checks what is typed

    @property
    def reduction(self) -> DamageReduction:
        return DamageReduction.parse(self.dr, typed=False)

    @property
    def is_object(self) -> bool:
        return self.kind == "object"

    def injury_save_bonus(self) -> int:
        """Fortitude for injury saves; objects add hardness and thickness, and may use the holder's (seed, Objects)."""
        if not self.is_object:
            return self.fort
        base = max(self.fort, self.holder_fort) if self.holder_fort is not None else self.fort
        return base + self.hardness + (self.thickness - 1)


def _light_if_unarmed(weapon: object) -> object:
    if isinstance(weapon, dict) and weapon.get("unarmed"):
        return {**weapon, "size": "light"}
    if isinstance(weapon, Weapon) and weapon.unarmed and weapon.size != "light":
        return weapon.model_copy(update={"size": "light"})
    return weapon


def parse_sheet(stats: dict[str, str], kind: str = "character") -> Sheet:
    """`--stat key=value` strings to a Sheet; unknown keys and non-integers are bad input."""
    if kind not in ("character", "object"):
        raise BadInput(f"unknown kind {kind!r}: choose character or object")
    allowed = CHARACTER_KEYS if kind == "character" else OBJECT_KEYS
    values: dict[str, object] = {"kind": kind}
    for key, text in stats.items():
        name = key.strip().lower()
        if name not in allowed:
            near = nearest(name, allowed)
            hint = f"did you mean {near!r}? The keys are" if near else "choose from"
            raise BadInput(f"unknown {kind} stat {key!r}: {hint} {', '.join(allowed)}")
        if name == "weapons":
            values[name] = _weapons(text)
        else:
            values[name] = str(DamageReduction.parse(text)) if name == "dr" else _integer(name, text)
    return Sheet.model_validate(values)


def _weapons(text: str) -> tuple[Weapon, ...]:
    """`weapons=rapier:attack=15,damage=3;dagger:damage=2,light`: weapon specs separated by `;` (see `weapon`)."""
    weapons = tuple(parse_weapon(part.strip()) for part in text.split(";") if part.strip())
    names = [w.name.lower() for w in weapons]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise BadInput(f"stat weapons: each weapon needs its own name ({', '.join(repeated)} given twice)")
    return weapons


MINIMUM = {"hardness": 0, "thickness": 1}


def _integer(key: str, text: str) -> int:
    value = typed_within_int64(text, f"stat {key}")
    if value is None:
        raise BadInput(f"stat {key}: expected an integer, got {str(text)[:40]!r}")
    if value < MINIMUM.get(key, value):
        raise BadInput(f"stat {key}: must be at least {MINIMUM[key]}, got {value}")
    return value


def sheet_keys() -> list[dict[str, str]]:
    """The keys `character add --stat KEY=VALUE` (and a sheet file) takes, each with its meaning."""
    fields = Sheet.model_fields
    found = []
    for kind, keys in (("character", CHARACTER_KEYS), ("object", OBJECT_KEYS)):
        for key in keys:
            field = fields["strength" if key == "str" else key]
            meaning = field.description or key
            if key == "weapons":
                meaning = "Weapons, name:damage=1d8,... each, separated by ; (attack=, enhancement=, threat=, light, "
                meaning += "two_handed, ranged, thrown, unarmed, nonlethal, types=)."
            found.append({"key": key, "for": kind if kind == "object" else "character", "meaning": meaning})
    return found
