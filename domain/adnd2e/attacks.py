"""Attack modifiers and refusals of non-lethal combat (seed, Weapons in defense/attack, Mugging, Sap, Grab)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..dice import Dice, parse
from ..errors import BadInput, Refusal
from ..model import Model
from .condition import Condition
from .damage import InjureInputs, Mode
from .mugging import check_muggable, check_mugger, mugging_weapon
from .rulings import Rulings
from .sheet import Sheet, dex_ac_bonus, hit_dice_thac0, size_rank, thac0_of
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
# The damage mode each maneuver deals on a hit (domain/adnd2e/damage.py); a mugging's and a grab's hit are
# followed by their own commands (mug, grab ...) and deal no damage here.
DAMAGE_MODES: dict[str, Mode] = {
    "normal": "lethal",
    "armed-nonlethal": "armed-nonlethal",
    "subdual": "subdual",
    "sap": "sap",
    **{maneuver: "subdual" for maneuver in BARE_HANDED},
}
BARE_HANDS_DAMAGE = "1d2"  # a punch (Player's Handbook, Punching and Wrestling); the seed gives none
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
    attacker_thac0: int | None = Field(
        None,
        description="Copied from the attacker's sheet or given; none when neither gives it: its hit dice then "
        "give it (ruling monster_thac0), else 20 (a 0-level human). Every attack recorded before holds it.",
    )
    attacker_hit_dice: int | str | None = Field(
        None, description="A monster's hit dice (no level), copied from the attacker's sheet, for its THAC0."
    )
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
    damage_dice: str | None = Field(
        None,
        description=(
            "The weapon's damage dice (bare hands 1d2), copied from the attacker's sheet: a hit rolls them. None "
            "when the sheet gives none, and in events recorded before a hit dealt its damage."
        ),
    )
    weapon_magic: int = Field(0, ge=0, description="The weapon's magic bonus, added to its damage (a sap drops it).")
    defender_damage_dice: str | None = Field(
        None, description="The armed defender's weapon damage dice, copied from its sheet: its strike's damage."
    )
    defender_weapon: str | None = Field(
        None, description="The weapon the armed defender strikes with, from its sheet (none: not known)."
    )
    defender_weapon_size: Literal["small", "medium", "large"] | None = Field(
        None, description="Its size: after the first round of a wrestling bout only small weapons may be used."
    )

    def blow(self, damage: int) -> InjureInputs | None:
        """The injury a hit of `damage` deals in its maneuver's mode (None: a maneuver that deals none)."""
        mode = DAMAGE_MODES.get(self.maneuver)
        if mode is None:
            return None
        return InjureInputs(damage=damage, attacker=self.attacker, mode=mode, magic_bonus=self.weapon_magic)


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
    damage: int | None = Field(
        None, description="A hit's damage to the attacker, its +4 included (none without the defender's dice)."
    )


def weapon_inputs(weapon: Weapon | None, thrown: bool = False) -> dict[str, object]:
    """The `AttackInputs` fields a sheet's weapon fills (`thrown`: a melee weapon thrown is a missile)."""
    if weapon is None:
        return {"weapon": None, "missile": thrown, "damage_dice": BARE_HANDS_DAMAGE}
    return {
        "weapon": weapon.name,
        "weapon_size": weapon.size,
        "weapon_kind": weapon.kind,
        "missile": weapon.missile or thrown,
        "damage_dice": weapon.damage,
        "weapon_magic": weapon.magic,
    }


def defending_weapon(
    sheet: Sheet, who: str, named: str | None, maneuver: str, wrestling_round: int | None
) -> Weapon | None:
    """The weapon an armed defender strikes a bare-handed attacker with (seed, Weapons in defense): the one
    named, else its sheet's only melee weapon (only small ones after a wrestling bout's first round). Several
    to choose from is bad input naming them, as the text gives the strike whichever weapon is used; none
    (a sheet that lists none) leaves the strike's damage to the table."""
    if maneuver not in BARE_HANDED:
        return None
    if named is not None:
        return sheet.wielded(named, who)
    melee = [weapon for weapon in sheet.weapons if not weapon.missile]
    later_round = bool(wrestling_round and wrestling_round > 1)
    usable = [weapon for weapon in melee if weapon.size == "small"] if later_round else melee
    if len(usable) > 1:
        raise BadInput(f"{who} could strike first with {_either(usable)}: name the weapon with --defender-weapon")
    if not usable and melee:
        raise Refusal(
            f"after the first round of a wrestling bout only small weapons may be used, and {who}'s "
            f"{_either(melee, 'and')} {'is' if len(melee) == 1 else 'are'} not small"
        )
    return usable[0] if usable else None


def _either(weapons: list[Weapon], joined: str = "or") -> str:
    names = [f"the {weapon.name}" for weapon in weapons]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {joined} {names[-1]}"


def attacking_weapon(sheet: Sheet, who: str, named: str | None, maneuver: str) -> Weapon | None:
    """The weapon an attack is made with: the one named, else the sheet's only weapon the maneuver can use (a
    mugging's only blunt melee weapon; a non-lethal attack's or a sap's only melee weapon); none for bare-handed
    maneuvers and grabs, or a sheet that lists none. Several to choose from is bad input naming them."""
    if named is not None:
        return sheet.wielded(named, who)
    if maneuver in BARE_HANDED or maneuver.startswith("grab"):
        return None
    if maneuver == "mug":
        return mugging_weapon(sheet, None, who)
    usable = [w for w in sheet.weapons if maneuver == "normal" or not w.missile]
    if len(usable) > 1:
        names = ", ".join(w.name for w in usable)
        raise BadInput(f"{who} has several weapons it could attack with ({names}): name one with --weapon")
    return usable[0] if usable else None


def copied_from_attacker(
    name: str,
    sheet: Sheet,
    condition: Condition,
    weapon: str | None,
    thrown: bool,
    thac0: int | None = None,
    maneuver: str = "normal",
) -> dict[str, object]:
    """What an attack's inputs copy from the attacker, so the event alone re-derives: THAC0 (or its hit dice),
    AC (10 unarmoured), height, classes, whether it is held, and the weapon on its sheet (`attacking_weapon`)."""
    return {
        "attacker": name,
        **weapon_inputs(attacking_weapon(sheet, name, weapon, maneuver), thrown),
        "attacker_thac0": thac0 if thac0 is not None else sheet.thac0,
        "attacker_hit_dice": sheet.hd if sheet.level is None else None,
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
    if inputs.damage_dice is not None:
        parse(inputs.damage_dice)
    later_round = bool(inputs.wrestling_round and inputs.wrestling_round > 1)
    if later_round and inputs.weapon and inputs.weapon_size != "small":
        raise Refusal(
            f"after the first round of a wrestling bout only small weapons may be used, and the {inputs.weapon} is "
            f"{inputs.weapon_size}"
        )
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
    size = inputs.defender_weapon_size
    if in_defense and later_round and size is not None and size != "small":
        # seed, Weapons in defense: "Those involved in a wrestling bout are limited to weapons of small size after
        # the first round of combat" -- the defender as much as the attacker
        raise Refusal(
            f"after the first round of a wrestling bout only small weapons may be used, the defender's too, and its "
            f"{inputs.defender_weapon or 'weapon'} is {size}"
        )
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


def _not_worked_out(thac0: int | None) -> bool:
    return thac0 is None


class AttackOutcome(Model):
    modifiers: AttackModifiers
    roll: int | None = None  # none when the hit is automatic
    needed: int | None = None
    thac0: int | None = Field(
        None,
        exclude_if=_not_worked_out,
        description="The attacker's THAC0 when the rules worked it out (by hit dice, or 20): none when copied.",
    )
    hit: bool
    defender_strike: Strike | None = None  # the armed defender's strike, made first
    damage: int | None = Field(
        None, description="A hit's rolled damage, magic bonus included (none: no damage dice, or a miss)."
    )


def hits(roll: int, to_hit: int, needed: int) -> bool:
    """d20 + modifiers against THAC0 - AC; a natural 20 hits and a natural 1 misses (2E standard)."""
    return roll == 20 or (roll != 1 and roll + to_hit >= needed)


def attack(sheet: Sheet, condition: Condition, inputs: AttackInputs, rulings: Rulings, dice: Dice) -> AttackOutcome:
    """One attack roll, after the armed defender's strike when it has one (it comes first, at +4 to hit and damage)."""
    modifiers = attack_modifiers(sheet, condition, inputs, rulings)
    strike = None
    if modifiers.defender_strikes_first and inputs.defender_strikes:
        first = dice.d(20, "defence")
        needed_first = thac0_of(sheet, rulings.monster_thac0 == "hit_dice")[0] - inputs.attacker_ac
        struck = hits(first, modifiers.defender_to_hit, needed_first)
        strike = Strike(
            roll=first,
            to_hit=modifiers.defender_to_hit,
            needed=needed_first,
            hit=struck,
            damage_bonus=modifiers.defender_damage,
            damage=_damage(dice, inputs.defender_damage_dice, modifiers.defender_damage, "defence_damage", struck),
        )
    if modifiers.automatic_hit:
        damage = _damage(dice, inputs.damage_dice, inputs.weapon_magic, "damage", inputs.blow(0) is not None)
        return AttackOutcome(modifiers=modifiers, hit=True, defender_strike=strike, damage=damage)
    roll = dice.d(20, "attack")
    thac0, worked_out = inputs.attacker_thac0, None
    if thac0 is None:
        by_hit_dice = rulings.monster_thac0 == "hit_dice" and inputs.attacker_hit_dice is not None
        thac0 = worked_out = hit_dice_thac0(inputs.attacker_hit_dice) if by_hit_dice else 20
    needed = thac0 - modifiers.target_ac
    hit = hits(roll, modifiers.to_hit, needed)
    damage = _damage(dice, inputs.damage_dice, inputs.weapon_magic, "damage", hit and inputs.blow(0) is not None)
    return AttackOutcome(
        modifiers=modifiers,
        roll=roll,
        needed=needed,
        thac0=worked_out,
        hit=hit,
        defender_strike=strike,
        damage=damage,
    )


def _damage(dice: Dice, notation: str | None, bonus: int, purpose: str, dealt: bool) -> int | None:
    """A hit's damage: its dice rolled (or the table's) plus `bonus`, at least 0; None when no damage is dealt
    or no dice are known."""
    if not dealt or notation is None:
        return None
    return max(dice.evaluate(notation, purpose).total + bonus, 0)
