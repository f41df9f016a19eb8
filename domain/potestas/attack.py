"""Attack and full attack (docs/rulings.md, Potestas; seed: Attack, Damage): one roll, any number of hits.

Each hit comes out as `InjuryInputs`; the caller records one Injured event per hit (save purpose `save:N`).
The table's damage dice may come as one list (dice purpose `damage`): the resolution hands them out to
each hit and weapon (`damage:HIT:WEAPON`) once the attack and confirmation rolls say how many it rolls.
"""

from pydantic import Field

from ..dice import Dice, parse
from ..errors import BadInput, Refusal
from ..model import Model
from .condition import Condition
from .injury import InjuryInputs
from .rulings import Rulings
from .sheet import Sheet, modifier
from .weapons import AttackInputs, Weapon

MISMATCH_PENALTY = 4  # lethal weapon for nonlethal damage, or the reverse
SWITCHED = "switched_damage_type"


class AttackOutcome(Model):
    attack_bonus: int = Field(description="Lowest weapon bonus plus every modifier below.")
    modifiers: dict[str, int] = Field(description="Situational and full-attack modifiers applied to the roll.")
    defence: int = Field(description="Target's defence bonus after cover, squeezing and lost Dex.")
    target_number: int = Field(description="10 + defence.")
    roll: int | None = Field(description="Natural d20 (None for a coup de grace: it hits automatically).")
    total: int | None
    hit: bool
    usual_type: bool = Field(
        description="Missed, but would have hit without the lethal/nonlethal -4: usual damage type."
    )
    threat: bool
    confirm_roll: int | None
    critical: bool
    multiplier: int = Field(description="Lowest critical multiplier among the weapons.")
    extra_hits: int = Field(description="Iterative: one per full 5 by which the roll beats the target, capped.")
    hits: tuple[InjuryInputs, ...]
    provokes: bool = Field(description="The attacker provokes (coup de grace; unarmed against an armed foe).")
    target_provokes: bool = Field(description="The target ignored this flanker and provokes from it.")


def attack(sheet: Sheet, condition: Condition, inputs: AttackInputs, rulings: Rulings, dice: Dice) -> AttackOutcome:
    """Resolve `inputs` against the target's `sheet` and `condition`."""
    weapons = inputs.weapons
    nonlethal = all(w.usual_nonlethal for w in weapons) if inputs.nonlethal is None else inputs.nonlethal
    modifiers = _modifiers(inputs, nonlethal)
    bonus = min(inputs.weapon_bonus(w, rulings) for w in weapons) + sum(modifiers.values())
    defence = _defence(sheet, inputs)
    target = 10 + defence
    threat_from = max(w.threat for w in weapons)  # the narrowest threat range
    multiplier = min(w.multiplier for w in weapons)
    roll = total = confirm = None
    usual_type = False
    if inputs.coup_de_grace:
        if condition.conscious and not inputs.target_helpless:
            raise Refusal("a coup de grace needs a helpless target")
        hit = threat = critical = True
    else:
        roll = dice.d(20, "attack")
        total = roll + bonus
        hit = _hits(roll, total, target, rulings)
        if (
            not hit
            and SWITCHED in modifiers
            and total + MISMATCH_PENALTY >= target
            and not _natural_miss(roll, rulings)
        ):
            hit, usual_type = True, True
        threat = hit and roll >= threat_from
        critical = threat
        if threat and rulings.confirm_criticals:
            if (
                rulings.critical_damage == "reroll_dice"
                and dice.from_table("damage")
                and not dice.from_table("confirm")
            ):
                raise BadInput(
                    "the table's damage dice on a threat need its confirmation roll too: when critical damage "
                    "rerolls the dice, the confirmation says how many are rolled"
                )
            confirm = dice.d(20, "confirm")
            critical = _hits(confirm, confirm + bonus, target, rulings)
    extra = _extra_hits(inputs, rulings, total - target) if hit and inputs.iterative and total is not None else 0
    if usual_type:
        nonlethal = all(w.usual_nonlethal for w in weapons)
    count = (1 + extra) * (2 if inputs.hurried else 1)
    critical_hits = (
        2 if inputs.hurried and (not inputs.iterative or rulings.hurried_iterative_crits == "first_pair") else 1
    )
    criticals = [critical and n <= critical_hits for n in range(1, count + 1)] if hit else []
    rolls = [_damage_rolls(inputs, n, crit, multiplier, rulings) for n, crit in enumerate(criticals, start=1)]
    counts = {purpose: _dice_count(weapon) for hit_rolls in rolls for purpose, weapon, _ in hit_rolls}
    dice.deal("damage", counts, "this attack" if hit else "this attack misses: it")
    hits = tuple(
        _blow(inputs, n, crit, multiplier, nonlethal, hit_rolls, rulings, dice)
        for n, (crit, hit_rolls) in enumerate(zip(criticals, rolls, strict=True), start=1)
    )
    return AttackOutcome(
        attack_bonus=bonus,
        modifiers=modifiers,
        defence=defence,
        target_number=target,
        roll=roll,
        total=total,
        hit=hit,
        usual_type=usual_type,
        threat=threat,
        confirm_roll=confirm,
        critical=critical,
        multiplier=multiplier,
        extra_hits=extra,
        hits=hits,
        provokes=inputs.coup_de_grace or _unarmed_provokes(inputs),
        target_provokes=inputs.flanker_ignored,
    )


def _modifiers(inputs: AttackInputs, nonlethal: bool) -> dict[str, int]:
    found: dict[str, int] = {}
    if inputs.multi_weapon:  # -4, or -6 if every weapon is one-handed; the feat makes it -2 / -4
        all_one_handed = all(w.size == "one_handed" for w in inputs.weapons)
        found["multi_weapon"] = -(6 if all_one_handed else 4) + (2 if inputs.multi_weapon_fighting else 0)
    if inputs.hurried:
        found["hurried"] = -2 if inputs.rapid else -4
    if any(_mismatched(w, nonlethal, inputs.weapon_group_unarmed) for w in inputs.weapons):
        found[SWITCHED] = -MISMATCH_PENALTY
    if inputs.squeezing:
        found["squeezing"] = -4
    if inputs.flanking and not inputs.flanker_ignored:
        found["flanking"] = 2
    return found


def _mismatched(weapon: Weapon, nonlethal: bool, unarmed_feat: bool) -> bool:
    if weapon.unarmed and not nonlethal:
        return not unarmed_feat  # lethal unarmed strikes: -4 without Weapon Group (Unarmed Strikes)
    return weapon.usual_nonlethal != nonlethal


def _defence(sheet: Sheet, inputs: AttackInputs) -> int:
    defence = sheet.defence
    if inputs.soft_cover and inputs.ranged:
        defence += 4
    if inputs.target_squeezing:
        defence -= 4
    if inputs.flanker_ignored:  # the target loses its Dex bonus against the flanker it ignores
        defence -= max(0, modifier(sheet.dex))
    return defence


def _natural_miss(roll: int, rulings: Rulings) -> bool:
    return roll == 1 and rulings.natural_1_misses


def _hits(roll: int, total: int, target: int, rulings: Rulings) -> bool:
    if _natural_miss(roll, rulings):
        return False
    return (roll == 20 and rulings.natural_20_hits) or total >= target


def _extra_hits(inputs: AttackInputs, rulings: Rulings, beaten_by: int) -> int:
    extra = max(0, beaten_by // 5)
    if rulings.iterative_cap == "bab":  # 1 + (BAB - 1) // 5 attacks: BAB 1-5 gives no extra hit
        extra = min(extra, max(0, (inputs.bab - 1) // 5))
    return extra


def _unarmed_provokes(inputs: AttackInputs) -> bool:
    unarmed = any(w.unarmed for w in inputs.weapons)
    return unarmed and inputs.target_armed and not inputs.weapon_group_unarmed


def _damage_rolls(
    inputs: AttackInputs, number: int, critical: bool, multiplier: int, rulings: Rulings
) -> list[tuple[str, Weapon, int]]:
    """Hit `number`'s weapon damage rolls in rolled order: (dice purpose, weapon, times its total counts)."""
    times = multiplier if critical else 1
    rolls = []
    for index, weapon in enumerate(inputs.weapons, start=1):
        purpose = f"damage:{number}:{index}"
        if critical and rulings.critical_damage == "reroll_dice":
            rolls += [(f"{purpose}:{k}", weapon, 1) for k in range(1, times + 1)]
        else:
            rolls.append((purpose, weapon, times))
    return rolls


def _dice_count(weapon: Weapon) -> int:
    return sum(term.count for term in parse(weapon.damage).dice)


def _blow(
    inputs: AttackInputs,
    number: int,
    critical: bool,
    multiplier: int,
    nonlethal: bool,
    rolls: list[tuple[str, Weapon, int]],
    rulings: Rulings,
    dice: Dice,
) -> InjuryInputs:
    """One hit's damage: weapons + Str + enhancement (multiplied on a critical) + bonus + energy, at least 1."""
    times = multiplier if critical else 1
    weapon_damage = sum(dice.evaluate(weapon.damage, purpose).total * factor for purpose, weapon, factor in rolls)
    additional = inputs.strength_damage(rulings.str_penalty_applies) + sum(w.enhancement for w in inputs.weapons)
    damage = max(1, weapon_damage + additional * times + inputs.bonus_damage + inputs.energy_damage)
    return InjuryInputs(
        damage=damage,
        type=None,
        also=inputs.damage_types(),
        energy=min(inputs.energy_damage, damage),
        nonlethal=nonlethal,
        critical=critical,
        coup_de_grace=inputs.coup_de_grace,
        hit=number,
    )
