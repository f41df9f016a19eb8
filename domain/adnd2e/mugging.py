"""Mugging: who may mug whom, with what, and the victim's save vs petrification after a hit (seed, Mugging)."""

from __future__ import annotations

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput, Refusal
from ..model import Model
from .condition import Condition
from .rulings import Rulings
from .sheet import Sheet
from .weapons import Weapon, WeaponKind

MUG_KNOCKOUT_ROUNDS = "2d8"


def mug_save(base: int, mugger_level: int, victim_level: int) -> int:
    """The number the victim needs: raised by `mugger level - victim level or HD` (t9 vs 4 HD: 12 -> 17)."""
    return base + mugger_level - victim_level


def check_muggable(victim: Sheet, mugger_height: int | None) -> None:
    """Only where a backstab is allowed, and not a victim more than twice the thief's height."""
    if not victim.backstab:
        raise Refusal("a mugging needs a victim a backstab would be allowed against")
    if victim.height is not None and mugger_height is not None and victim.height > 2 * mugger_height:
        raise Refusal(f"the victim ({victim.height} in) is more than twice the mugger's height ({mugger_height} in)")


def check_mugger(classes: tuple[str, ...] | None, weapon: str | None, kind: WeaponKind | None, missile: bool) -> None:
    """A thief (the sheet's class), striking with a blunt instrument, never a missile. `classes` is None in
    events recorded before sheets had classes and weapons: those are not checked again."""
    if classes is None:
        return
    if "thief" not in classes:
        had = "/".join(classes) or "no class"
        raise Refusal(f"only a thief can mug (the mugger's sheet says {had}; its class is set with class=thief)")
    if weapon is None or kind is None:
        raise Refusal("a mugging is a blow with a blunt instrument: name a blunt weapon from the mugger's sheet")
    if missile:
        raise Refusal(f"a mugging is a blow from behind, never a missile ({weapon})")
    if kind != "blunt":
        raise Refusal(f"a mugging needs a blunt instrument, and the {weapon} is {kind}")


def check_not_oneself(mugger: str, victim: str) -> None:
    if mugger.casefold() == victim.casefold():
        raise Refusal(f"{mugger} cannot mug itself")


def mugging_weapon(sheet: Sheet, name: str | None, who: str) -> Weapon | None:
    """The weapon `--weapon NAME` names on the mugger's sheet or, unnamed, its only blunt melee weapon."""
    if name is not None:
        return sheet.wielded(name, who)
    blunt = [weapon for weapon in sheet.weapons if weapon.kind == "blunt" and not weapon.missile]
    if len(blunt) > 1:
        raise BadInput(f"{who} has several blunt weapons ({', '.join(w.name for w in blunt)}): name one with --weapon")
    return blunt[0] if blunt else None


def copied_from_mugger(name: str, sheet: Sheet, weapon: str | None) -> dict[str, object]:
    """What a mugging's inputs copy from the mugger: level, height, classes and its blunt instrument."""
    blow = mugging_weapon(sheet, weapon, name)
    return {
        "mugger": name,
        "mugger_level": sheet.rank,
        "mugger_height": sheet.height,
        "mugger_classes": sheet.classes,
        "weapon": blow and blow.name,
        "weapon_kind": blow and blow.kind,
        "missile": bool(blow and blow.missile),
    }


class MugInputs(Model):
    save_number: int = Field(description="The victim's base save vs petrification (the table's save charts).")
    mugger: str | None = None
    mugger_level: int = Field(0, ge=0)
    mugger_height: int | None = Field(None, description="Inches; the victim's height defaults to it.")
    mugger_classes: tuple[str, ...] | None = Field(
        None, description="Copied from the mugger's sheet; none in events recorded before sheets had classes."
    )
    weapon: str | None = Field(None, description="The blunt instrument, from the mugger's sheet.")
    weapon_kind: WeaponKind | None = None
    missile: bool = False


class MugOutcome(Model):
    save_number: int  # after the level difference
    save_roll: int | None = None  # none when the save cannot be made (ruling save_above_20=impossible)
    saved: bool
    knockout_rounds: int | None = None


def mug(sheet: Sheet, condition: Condition, inputs: MugInputs, rulings: Rulings, dice: Dice) -> MugOutcome:
    """Save d20 at or over the number; failure knocks the victim out for 2d8 rounds. Above 20 the ruling
    `save_above_20` decides: a natural 20 still saves, or the save is impossible and not rolled."""
    if not 1 <= inputs.save_number <= 20:
        raise BadInput(f"a base save number is 1 to 20, not {inputs.save_number}")
    if condition.dead:
        raise Refusal("the dead cannot be knocked out")
    check_mugger(inputs.mugger_classes, inputs.weapon, inputs.weapon_kind, inputs.missile)
    check_muggable(sheet, inputs.mugger_height)
    number = mug_save(inputs.save_number, inputs.mugger_level, sheet.ranked(rulings.partial_hit_dice == "up"))
    roll: int | None = None
    if number > 20 and rulings.save_above_20 == "impossible":
        saved = False
    else:
        roll = dice.d(20, "save")
        saved = roll >= number or (number > 20 and roll == 20)
    rounds = None if saved else dice.evaluate(MUG_KNOCKOUT_ROUNDS, "knockout_rounds").total
    return MugOutcome(save_number=number, save_roll=roll, saved=saved, knockout_rounds=rounds)
