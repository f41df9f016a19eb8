"""Attack modifiers and refusals of non-lethal combat (seed, Weapons in defense/attack, Mugging, Sap, Grab)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..dice import Dice
from ..errors import Refusal
from ..model import Model
from .condition import Condition
from .mugging import check_muggable, check_mugger
from .rulings import Rulings
from .sheet import Sheet, dex_ac_bonus, size_rank
from .weapons import Weapon, WeaponKind

Maneuver = Literal[
    "normal",
    "armed-nonlethal",
    "subdual",
    "sap",
    "mug",
    "grab-object",
    "grab-person",
    "grab-monster",
    "punch",
    "wrestle",
    "overbear",
    "martial-arts",
]
BARE_HANDED = frozenset({"punch", "wrestle", "overbear", "martial-arts"})
CALLED_SHOTS = frozenset({"sap", "grab-object", "grab-person", "grab-monster"})
# Damage that cannot be controlled (seed, Weapons in attack); "bow" covers arrows and crossbow bolts.
UNCONTROLLABLE = ("arrow", "bow", "sling", "war hammer", "warhammer", "mace")


class AttackInputs(Model):
    attacker: str = Field("", description="Who attacked (the event is recorded on the target).")
    maneuver: Maneuver = "normal"
    weapon: str | None = Field(None, description="The weapon's name; none for bare hands.")
    weapon_size: Literal["small", "medium", "large"] = "medium"
    weapon_kind: WeaponKind | None = Field(
        None,
        description=(
            "blunt, edged or piercing, from the attacker's sheet; none in events recorded before sheets had weapons."
        ),
    )
    missile: bool = False
    attacker_thac0: int = Field(20, description="Copied from the attacker's sheet (20 for a 0-level human).")
    attacker_height: int | None = Field(None, description="Inches, copied from the attacker's sheet (mugging).")
    attacker_held: bool = Field(False, description="The attacker is in a hold: -4 except with wrestling attacks.")
    wrestling_round: int | None = Field(None, ge=1, description="Round of the wrestling bout the attack is made in.")
    defender_armed: bool = Field(False, description="The target holds a weapon (weapons in defense).")
    free_hand: bool = True
    attacker_classes: tuple[str, ...] | None = Field(
        None,
        description="Copied from the attacker's sheet (only a thief mugs); none in events recorded before classes.",
    )
    attacker_ac: int = Field(
        10, description="Copied from the attacker's sheet: what the armed defender's strike needs."
    )
    defender_strikes: bool = Field(
        False,
        description=(
            "The armed defender's strike is rolled first in this event (false in events recorded before it was)."
        ),
    )


class AttackModifiers(Model):
    to_hit: int = 0
    damage: int = 0
    initiative: int = 0  # added to the attacker's initiative roll (higher acts later)
    target_ac: int
    automatic_hit: bool = False
    defender_strikes_first: bool = False
    defender_to_hit: int = 0
    defender_damage: int = 0


class Strike(Model):
    """The armed defender's strike at a bare-handed attacker, made first and at +4 (seed, Weapons in defense)."""

    roll: int
    to_hit: int
    needed: int
    hit: bool
    damage_bonus: int


def weapon_inputs(weapon: Weapon | None, thrown: bool = False) -> dict[str, object]:
    """The `AttackInputs` fields a sheet's weapon fills (`thrown`: a melee weapon thrown is a missile)."""
    if weapon is None:
        return {"weapon": None, "missile": thrown}
    return {
        "weapon": weapon.name,
        "weapon_size": weapon.size,
        "weapon_kind": weapon.kind,
        "missile": weapon.missile or thrown,
    }


def copied_from_attacker(
    name: str, sheet: Sheet, condition: Condition, weapon: str | None, thrown: bool, thac0: int | None = None
) -> dict[str, object]:
    """What an attack's inputs copy from the attacker, so the event alone re-derives: THAC0 (20 for a 0-level
    human), AC (10 unarmoured), height, classes, whether it is held, and the weapon on its sheet."""
    return {
        "attacker": name,
        **weapon_inputs(sheet.wielded(weapon, name), thrown),
        "attacker_thac0": thac0 if thac0 is not None else sheet.thac0 if sheet.thac0 is not None else 20,
        "attacker_height": sheet.height,
        "attacker_held": condition.held_by is not None,
        "attacker_classes": sheet.classes,
        "attacker_ac": sheet.ac if sheet.ac is not None else 10,
        "defender_strikes": True,
    }


def attack_modifiers(sheet: Sheet, condition: Condition, inputs: AttackInputs, rulings: Rulings) -> AttackModifiers:
    """What the rules add to an attack on the character with `sheet`, or a `Refusal`."""
    maneuver, to_hit, initiative = inputs.maneuver, 0, 0
    ac = sheet.ac if sheet.ac is not None else 10  # unarmoured when the sheet is silent
    weapon = (inputs.weapon or "").lower().replace("-", " ").replace("_", " ")
    if inputs.wrestling_round and inputs.wrestling_round > 1 and inputs.weapon and inputs.weapon_size != "small":
        raise Refusal("after the first round of a wrestling bout only small weapons may be used")
    if maneuver in ("armed-nonlethal", "subdual"):
        check_controllable(inputs, weapon, rulings)
        to_hit -= 4
    if maneuver in CALLED_SHOTS:  # announced before initiative, +1 to initiative, -4 to hit
        to_hit, initiative = to_hit - 4, initiative + 1
    if maneuver.startswith("grab") and not inputs.free_hand:
        raise Refusal("a grab needs at least one free hand")
    automatic = False
    if maneuver == "sap":
        if size_rank(sheet.size) > size_rank("medium"):
            raise Refusal(f"a sap works only on small or medium creatures, not {sheet.size} ones")
        if inputs.missile:
            raise Refusal("a sap is made with a melee weapon or bare hands, never a missile")
        to_hit -= 4  # an extra -4 on the called shot's: -8 in all
        automatic = condition.asleep or condition.magically_held
    if maneuver == "mug":
        check_mugger(inputs.attacker_classes, inputs.weapon, inputs.weapon_kind, inputs.missile)
        check_muggable(sheet, inputs.attacker_height)
        to_hit += 4  # the backstab bonus; the victim loses shield and Dex bonuses
        ac = 10 if rulings.helmets_tracked and not sheet.helmet else ac + sheet.shield + max(dex_ac_bonus(sheet.dex), 0)
    if inputs.attacker_held and maneuver != "wrestle":
        to_hit -= 4
    in_defense = maneuver in BARE_HANDED and inputs.defender_armed
    return AttackModifiers(
        to_hit=to_hit,
        initiative=initiative,
        target_ac=ac,
        automatic_hit=automatic,
        defender_strikes_first=in_defense,
        defender_to_hit=4 if in_defense else 0,
        defender_damage=4 if in_defense else 0,
    )


def check_controllable(inputs: AttackInputs, weapon: str, rulings: Rulings) -> None:
    """Armed non-lethal and subdual attacks need a weapon whose damage can be controlled (seed, Weapons in attack):
    an edged melee weapon, or any melee weapon under ruling `uncontrolled_nonlethal`; never a missile."""
    if not weapon:
        raise Refusal("an armed non-lethal attack needs a weapon (bare hands punch or wrestle)")
    if inputs.missile:
        raise Refusal(f"the damage of a missile ({inputs.weapon}) cannot be controlled")
    if inputs.weapon_kind is None:  # recorded before sheets had weapons: judged by its name, as then
        if any(word in weapon for word in UNCONTROLLABLE):
            raise Refusal(
                f"the damage of a {inputs.weapon} cannot be controlled (not arrows, slings, war hammers or maces)"
            )
    elif inputs.weapon_kind != "edged" and not rulings.uncontrolled_nonlethal:
        raise Refusal(
            f"the damage of a {inputs.weapon_kind} weapon ({inputs.weapon}) cannot be controlled: only swords and "
            "axes, blade turned (ruling uncontrolled_nonlethal allows others)"
        )


class AttackOutcome(Model):
    modifiers: AttackModifiers
    roll: int | None = None  # none when the hit is automatic
    needed: int | None = None
    hit: bool
    defender_strike: Strike | None = None  # the armed defender's strike, made first


def hits(roll: int, to_hit: int, needed: int) -> bool:
    """d20 + modifiers against THAC0 - AC; a natural 20 hits and a natural 1 misses (2E standard)."""
    return roll == 20 or (roll != 1 and roll + to_hit >= needed)


def attack(sheet: Sheet, condition: Condition, inputs: AttackInputs, rulings: Rulings, dice: Dice) -> AttackOutcome:
    """One attack roll, after the armed defender's strike when it has one (it comes first, at +4 to hit and damage)."""
    modifiers = attack_modifiers(sheet, condition, inputs, rulings)
    strike = None
    if modifiers.defender_strikes_first and inputs.defender_strikes:
        first = dice.d(20, "defence")
        needed_first = (sheet.thac0 if sheet.thac0 is not None else 20) - inputs.attacker_ac
        strike = Strike(
            roll=first,
            to_hit=modifiers.defender_to_hit,
            needed=needed_first,
            hit=hits(first, modifiers.defender_to_hit, needed_first),
            damage_bonus=modifiers.defender_damage,
        )
    if modifiers.automatic_hit:
        return AttackOutcome(modifiers=modifiers, hit=True, defender_strike=strike)
    roll = dice.d(20, "attack")
    needed = inputs.attacker_thac0 - modifiers.target_ac
    return AttackOutcome(
        modifiers=modifiers, roll=roll, needed=needed, hit=hits(roll, modifiers.to_hit, needed), defender_strike=strike
    )
