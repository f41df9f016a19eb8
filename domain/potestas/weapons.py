"""Weapons and the attacker's numbers an attack needs, copied into the event so it re-derives alone."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from ..dice import parse
from ..errors import BadInput
from ..model import Model
from .damage import damage_type
from .sheet import Sheet, modifier

WEAPON_FLAGS = {"light": ("size", "light"), "two_handed": ("size", "two_handed"), "ranged": ("ranged", True),
                "thrown": ("thrown", True), "unarmed": ("unarmed", True), "nonlethal": ("nonlethal", True)}


class Weapon(Model):
    name: str = "weapon"
    attack: int | None = Field(None, description="This weapon's usual attack bonus, if known; else BAB + ability + size + enhancement.")
    damage: str = Field("1", description="Weapon damage: a number (Potestas: 1-6 for Medium weapons) or dice notation.")
    enhancement: int = Field(0, ge=0, description="+1 damage per +1 enhancement (per weapon).")
    size: Literal["light", "one_handed", "two_handed"] = Field(
        "one_handed", description="3E size category: a light weapon (dagger) is not one-handed."
    )
    ranged: bool = False
    thrown: bool = Field(False, description="Thrown weapons and slings add Str damage although ranged.")
    threat: int = Field(20, ge=2, le=20, description="Lowest natural roll that threatens (19 for 19-20).")
    multiplier: int = Field(2, ge=2, description="Critical multiplier.")
    nonlethal: bool = Field(False, description="Usually deals nonlethal damage (unarmed strikes always do).")
    unarmed: bool = False
    types: tuple[str, ...] = Field((), description="Damage types and qualities that may overcome DR.")

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


def parse_weapon(text: str) -> Weapon:
    """`rapier:attack=15,damage=3,enhancement=3,threat=18,types=piercing+silver` plus bare flags
    (`light`, `two_handed`, `ranged`, `thrown`, `unarmed`, `nonlethal`); anything wrong is bad input."""
    name, _, spec = text.partition(":")
    values: dict[str, object] = {"name": name.strip() or "weapon"}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        key, has_value, value = item.partition("=")
        if not has_value and key in WEAPON_FLAGS:
            field, flag = WEAPON_FLAGS[key]
            values[field] = flag
        elif key == "types":
            values["types"] = tuple(value.split("+"))
        elif has_value and key in ("attack", "damage", "enhancement", "threat", "multiplier"):
            values[key] = value
        else:
            raise BadInput(f"weapon {text!r}: unknown part {item!r}")
    try:
        return Weapon.model_validate(values)
    except ValidationError as error:
        problem = error.errors()[0]
        raise BadInput(f"weapon {text!r}: {'.'.join(map(str, problem['loc']))}: {problem['msg']}") from None


class AttackInputs(Model):
    """A declared attack (or full attack) and the attacker's numbers; the target's come from its sheet."""

    attacker: str = ""
    bab: int = 0
    strength: int = Field(10, description="Attacker's Str score.")
    dex: int = Field(10, description="Attacker's Dex score.")
    size: int = Field(0, description="Attacker's size modifier.")
    weapons: tuple[Weapon, ...] = Field(description="Two or more is a multi-weapon attack.")
    nonlethal: bool | None = Field(None, description="Deal nonlethal damage; None is the weapons' usual type.")
    hurried: bool = False
    iterative: bool = False
    coup_de_grace: bool = False
    rapid: bool = Field(False, description="Rapid Shot, Rapid Strike or Haste: hurried at -2, not -4.")
    multi_weapon_fighting: bool = Field(False, description="Feat: multi-weapon penalties -2/-4, not -4/-6.")
    weapon_group_unarmed: bool = Field(False, description="Feat: lethal unarmed strikes without -4, no provoking.")
    flanking: bool = False
    flanker_ignored: bool = Field(False, description="The target ignores this flanker: no +2, the target loses Dex.")
    squeezing: bool = Field(False, description="The attacker shares a square: -4 attack.")
    target_squeezing: bool = Field(False, description="The target shares a square: -4 defence.")
    soft_cover: bool = Field(False, description="The target has soft cover: +4 defence against ranged attacks only.")
    range_penalty: int = Field(0, le=0)
    bonus_damage: int = Field(0, ge=0, description="Sneak attack and the like: not multiplied on a critical.")
    energy_damage: int = Field(0, ge=0, description="Energy dealt along with the attack: not multiplied, ignores DR.")
    target_armed: bool = Field(False, description="Unarmed attacks against armed foes provoke.")
    target_helpless: bool = Field(False, description="Helpless for reasons the ladder does not show (bound, paralysed).")

    @classmethod
    def by(cls, attacker: str, sheet: Sheet, weapons: tuple[Weapon, ...], **options: object) -> AttackInputs:
        """The attacker's sheet numbers copied in, so the event re-derives without it."""
        stats = {"bab": sheet.bab, "strength": sheet.strength, "dex": sheet.dex, "size": sheet.size}
        return cls(attacker=attacker, weapons=weapons, **stats, **options)

    @model_validator(mode="after")
    def _consistent(self) -> AttackInputs:
        if not self.weapons:
            raise BadInput("an attack needs at least one weapon")
        if self.coup_de_grace and (self.hurried or self.iterative):
            raise BadInput("a coup de grace is one critical hit: it cannot be hurried or iterative")
        return self

    @property
    def multi_weapon(self) -> bool:
        return len(self.weapons) > 1

    @property
    def ranged(self) -> bool:
        return any(w.ranged for w in self.weapons)

    def weapon_bonus(self, weapon: Weapon) -> int:
        """Melee one- or two-handed: BAB + Str + size; light or ranged: BAB + Dex + size; unarmed may use Str."""
        if weapon.attack is not None:
            usual = weapon.attack
        else:
            strength, dex = modifier(self.strength), modifier(self.dex)
            if weapon.unarmed:
                ability = max(strength, dex)
            elif weapon.ranged or weapon.size == "light":
                ability = dex
            else:
                ability = strength
            usual = self.bab + ability + self.size + weapon.enhancement
        return usual + (self.range_penalty if weapon.ranged else 0)

    def strength_damage(self, penalty_applies: bool) -> int:
        """+1 per +1 Str bonus for melee and thrown; with several weapons or a two-handed one, +1 per full +2 more."""
        if not any(w.adds_strength for w in self.weapons):
            return 0
        mod = modifier(self.strength)
        if mod < 0:
            return mod if penalty_applies else 0
        doubled = self.multi_weapon or any(w.size == "two_handed" for w in self.weapons)
        return mod + (mod // 2 if doubled else 0)

    def damage_types(self) -> tuple[str, ...]:
        """Qualities every weapon shares (the blow meets DR once); enhancement makes a weapon magic."""
        per_weapon = [set(w.types) | ({"magic"} if w.enhancement else set()) for w in self.weapons]
        shared = set.intersection(*per_weapon)
        return tuple(sorted(shared))
