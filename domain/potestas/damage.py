"""Damage types, damage reduction (`N/X`), hardness and the injury DC (docs/rulings.md, Potestas)."""

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import BadInput
from ..limits import typed_within_int64

WEAPON_TYPES = ("bludgeoning", "piercing", "slashing", "silver", "cold_iron", "adamantine", "magic")
ENERGY_TYPES = ("fire", "cold", "acid", "electricity", "sonic")
DAMAGE_TYPES = (*WEAPON_TYPES, *ENERGY_TYPES, "spell")
IGNORES_DR = frozenset((*ENERGY_TYPES, "spell"))  # spells and energy, even mundane fire, ignore DR


def damage_type(text: str) -> str:
    """A damage type named on the command line; anything outside the list is bad input."""
    name = text.strip().lower().replace("-", "_").replace(" ", "_")
    if name not in DAMAGE_TYPES:
        raise BadInput(f"unknown damage type {text!r}: choose from {', '.join(DAMAGE_TYPES)}")
    return name


@dataclass(frozen=True)
class DamageReduction:
    """`amount/bypass`: removes `amount` points unless the attack is `bypass` (None is `N/-`)."""

    amount: int
    bypass: str | None = None

    @classmethod
    def parse(cls, text: str, typed: bool = True) -> "DamageReduction":
        """`typed`: a person's input, held to the 64-bit limit with a kind (`N/silver`) as without; a sheet
        stored before the limit covered the kind reads as it was (`typed=False`)."""
        amount, _, bypass = str(text).strip().partition("/")
        points = typed_within_int64(amount, "damage reduction") if typed else None
        try:
            points = int(amount) if points is None else points
        except ValueError:
            raise BadInput(f"bad damage reduction {str(text)[:40]!r}: expected e.g. 5, 5/- or 5/silver") from None
        if points < 0:
            raise BadInput(f"bad damage reduction {text!r}: cannot be negative")
        bypass = bypass.strip()
        if bypass in ("", "-"):
            return cls(points)
        name = bypass.lower().replace("-", "_").replace(" ", "_")
        if name not in WEAPON_TYPES:
            raise BadInput(f"bad damage reduction {text!r}: overcome by one of {', '.join(WEAPON_TYPES)} or -")
        return cls(points, name)

    def __str__(self) -> str:
        return f"{self.amount}/{self.bypass}" if self.bypass else str(self.amount)

    def against(self, types: Iterable[str]) -> int:
        """Points removed from an attack of these types."""
        kinds = set(types)
        if kinds & IGNORES_DR or (self.bypass is not None and self.bypass in kinds):
            return 0
        return self.amount


def fortitude_dc(damage: int) -> int:
    """The injury save DC: 15 + damage // 5, on the damage left after DR (seed, Injury)."""
    if damage < 0:
        raise BadInput(f"damage cannot be negative (got {damage})")
    return 15 + damage // 5
