"""The attacker's numbers and weapons an attack needs, copied into the event so it re-derives alone."""

from pydantic import Field, model_validator

from ..errors import BadInput
from ..model import Model
from .rulings import Rulings
from .sheet import Sheet, modifier
from .weapon import Weapon, parse_weapon

__all__ = ["AttackInputs", "Weapon", "parse_weapon", "choose_weapons"]


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
    target_helpless: bool = Field(
        False, description="Helpless for reasons the ladder does not show (bound, paralysed)."
    )

    @classmethod
    def by(cls, attacker: str, sheet: Sheet, weapons: tuple[Weapon, ...], **options: object) -> "AttackInputs":
        """The attacker's sheet numbers copied in, so the event re-derives without it."""
        stats = {"bab": sheet.bab, "strength": sheet.strength, "dex": sheet.dex, "size": sheet.size}
        return cls(attacker=attacker, weapons=weapons, **stats, **options)

    @model_validator(mode="after")
    def _consistent(self) -> "AttackInputs":
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
        """Any ranged weapon; `parse_weapon` makes thrown weapons ranged (events recorded before kept them apart)."""
        return any(w.ranged for w in self.weapons)

    def weapon_bonus(self, weapon: Weapon, rulings: Rulings | None = None) -> int:
        """Melee one- or two-handed: BAB + Str + size; light or ranged: BAB + Dex + size; unarmed may use Str;
        + enhancement under `enhancement_to_hit` (the default rulings when none are given). A weapon's given
        `attack` is its usual bonus, enhancement included (the seed's +3 rapier, "usually +15")."""
        enhancement = weapon.enhancement if rulings is None or rulings.enhancement_to_hit else 0
        if weapon.attack is not None:
            usual = weapon.attack - weapon.enhancement + enhancement
        else:
            strength, dex = modifier(self.strength), modifier(self.dex)
            if weapon.unarmed:
                ability = max(strength, dex)
            elif weapon.ranged or weapon.size == "light":
                ability = dex
            else:
                ability = strength
            usual = self.bab + ability + self.size + enhancement
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


def choose_weapons(owner: str, sheet: Sheet, named: tuple[str, ...], multi_weapon: bool) -> tuple[Weapon, ...]:
    """The weapons of one attack. `named` holds `--weapon` values: a bare name is the sheet's weapon
    of that name, a spec with `:` stands alone. None named: the sheet's only weapon, or all of them with
    `multi_weapon`; several on the sheet and none named is bad input naming them. Several weapons only as a
    declared multi-weapon attack (seed, Multi-Weapon Fighting)."""
    if named:
        weapons = tuple(_named(owner, sheet, text) for text in named)
    elif not sheet.weapons:
        raise BadInput(
            f"{owner}'s sheet lists no weapons: give --weapon NAME:damage=N,... or add them to the sheet "
            "(--stat weapons=SPEC;SPEC)"
        )
    elif len(sheet.weapons) > 1 and not multi_weapon:
        names = ", ".join(w.name for w in sheet.weapons)
        raise BadInput(
            f"{owner} has several weapons ({names}): name one with --weapon, or declare a multi-weapon attack "
            "with --multi-weapon"
        )
    else:
        weapons = sheet.weapons
    if multi_weapon and len(weapons) < 2:
        raise BadInput("a multi-weapon attack needs two or more weapons")
    if len(weapons) > 1 and not multi_weapon:
        raise BadInput(
            f"{len(weapons)} weapons named without --multi-weapon: declare a multi-weapon attack, or name one weapon"
        )
    return weapons


def _named(owner: str, sheet: Sheet, text: str) -> Weapon:
    if ":" in text:
        return parse_weapon(text)
    wanted = text.strip().lower()
    for weapon in sheet.weapons:
        if weapon.name.lower() == wanted:
            return weapon
    carried = ", ".join(w.name for w in sheet.weapons)
    listed = f"it lists {carried}" if carried else "it lists none"
    raise BadInput(
        f"{owner}'s sheet has no weapon {text!r} ({listed}): name one of them, or give a full spec "
        f"such as {text.strip() or 'sword'}:damage=1d8"
    )
