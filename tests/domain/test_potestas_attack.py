"""Potestas attacks and full attacks (docs/rulings.md, Potestas, Attack, Full attack options, Damage)."""

import pytest

from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput, Refusal
from chronicle.domain.potestas import AttackInputs, Condition, Rulings, Sheet, Weapon, attack, injure, parse_weapon

SWORD = Weapon(name="sword", damage="3")


def swing(roll, *weapons, target=Sheet(), condition=Condition(), rulings=Rulings(), table=None, **inputs):
    dice = Dice(11, table={"attack": [roll], **(table or {})})
    return attack(target, condition, AttackInputs(weapons=weapons or (SWORD,), **inputs), rulings, dice)


def test_ivanior_multi_weapon_example():
    rapier = Weapon(name="rapier", attack=15, damage="3", enhancement=3, threat=18)
    dagger = Weapon(name="dagger", attack=13, damage="2", enhancement=1, size="light", threat=19)
    guard = Sheet(fort=2, defence=8)
    out = swing(10, rapier, dagger, target=guard, strength=14, multi_weapon_fighting=True, iterative=True, bab=15)
    assert (out.attack_bonus, out.modifiers, out.total, out.target_number) == (11, {"multi_weapon": -2}, 21, 18)
    assert [h.damage for h in out.hits] == [12]  # 3 + 2 + 3 (Str) + 3 + 1 (enhancement), hit by less than 5
    assert injure(guard, Condition(), out.hits[0], Rulings(), Dice(1, table={"save:1": [10]})).dc == 17


def test_hit_when_d20_plus_attack_bonus_meets_10_plus_defence():
    assert swing(10, bab=5, target=Sheet(defence=5)).hit
    assert not swing(9, bab=5, target=Sheet(defence=5)).hit


def test_a_miss_deals_no_hits():
    assert swing(2, target=Sheet(defence=5)).hits == ()


def test_natural_20_hits_and_natural_1_misses():
    assert swing(20, target=Sheet(defence=30)).hit
    assert not swing(1, bab=30).hit


def test_natural_roll_rulings_can_be_turned_off():
    assert not swing(20, target=Sheet(defence=30), rulings=Rulings(natural_20_hits=False)).hit
    assert swing(1, bab=30, rulings=Rulings(natural_1_misses=False)).hit


def test_melee_attack_bonus_is_bab_plus_str_plus_size_plus_enhancement():
    assert swing(10, Weapon(enhancement=1), bab=3, strength=14, dex=18, size=1).attack_bonus == 7


def test_light_and_ranged_attacks_use_dex_and_the_range_penalty():
    assert swing(10, Weapon(size="light"), bab=3, strength=14, dex=16).attack_bonus == 6
    assert swing(10, Weapon(ranged=True), bab=3, strength=14, dex=16, range_penalty=-2).attack_bonus == 4


def test_unarmed_strikes_may_use_strength():
    assert swing(10, Weapon(unarmed=True, size="light"), strength=16, dex=12).attack_bonus == 3


def test_a_confirmed_threat_is_a_critical():
    out = swing(19, Weapon(threat=19), target=Sheet(defence=5), table={"confirm": [15]})
    assert (out.threat, out.confirm_roll, out.critical, out.hits[0].critical) == (True, 15, True, True)


def test_an_unconfirmed_threat_is_a_plain_hit():
    out = swing(19, Weapon(threat=19), target=Sheet(defence=5), table={"confirm": [4]})
    assert (out.threat, out.critical) == (True, False)


def test_confirm_criticals_off_makes_every_threat_critical():
    out = swing(20, target=Sheet(defence=5), rulings=Rulings(confirm_criticals=False))
    assert (out.confirm_roll, out.critical) == (None, True)


def test_critical_multiplies_weapon_str_and_enhancement_damage_not_bonus_damage():
    weapon = Weapon(damage="3", enhancement=1, multiplier=3)
    out = swing(20, weapon, strength=14, bonus_damage=4, table={"confirm": [20]})
    assert out.hits[0].damage == (3 + 2 + 1) * 3 + 4


def test_critical_damage_multiply_roll_multiplies_the_rolled_weapon_damage():
    out = swing(20, Weapon(damage="1d6"), table={"confirm": [20], "damage:1:1": [4]})
    assert out.hits[0].damage == 8


def test_critical_damage_reroll_dice_rolls_the_weapon_damage_multiplier_times():
    table = {"confirm": [20], "damage:1:1:1": [2], "damage:1:1:2": [5]}
    out = swing(20, Weapon(damage="1d6"), table=table, rulings=Rulings(critical_damage="reroll_dice"))
    assert out.hits[0].damage == 7


def test_two_handed_weapons_add_an_extra_1_per_full_2_str_bonus():
    assert swing(15, Weapon(damage="1", size="two_handed"), strength=18).hits[0].damage == 1 + 4 + 2
    assert swing(15, Weapon(damage="1"), strength=18).hits[0].damage == 1 + 4


def test_a_str_penalty_reduces_damage_but_never_below_1():
    assert swing(15, Weapon(damage="3"), strength=8).hits[0].damage == 2
    assert swing(15, Weapon(damage="2"), strength=6).hits[0].damage == 1


def test_str_penalty_ruling_off_ignores_negative_strength():
    assert swing(15, Weapon(damage="2"), strength=6, rulings=Rulings(str_penalty_applies=False)).hits[0].damage == 2


def test_ranged_weapons_add_str_only_when_thrown():
    assert swing(15, Weapon(damage="2", ranged=True), strength=18).hits[0].damage == 2
    assert swing(15, Weapon(damage="2", ranged=True, thrown=True), strength=18).hits[0].damage == 6


def test_switching_lethal_and_nonlethal_costs_4():
    out = swing(15, SWORD, nonlethal=True)
    assert (out.modifiers, out.hits[0].nonlethal) == ({"switched_damage_type": -4}, True)


def test_a_switched_attack_that_would_have_hit_without_the_4_does_its_usual_damage():
    out = swing(12, SWORD, nonlethal=True)  # 12 - 4 = 8 misses 10, 12 would have hit
    assert (out.hit, out.usual_type, out.hits[0].nonlethal) == (True, True, False)
    assert not swing(5, SWORD, nonlethal=True).hit


def test_unarmed_strikes_are_nonlethal_at_no_penalty_lethal_at_4():
    fist = Weapon(unarmed=True, size="light")
    assert (swing(15, fist).modifiers, swing(15, fist).hits[0].nonlethal) == ({}, True)
    assert swing(15, fist, nonlethal=False).modifiers == {"switched_damage_type": -4}


def test_weapon_group_unarmed_removes_the_lethal_penalty_and_the_provocation():
    fist = Weapon(unarmed=True, size="light")
    assert swing(15, fist, nonlethal=False, weapon_group_unarmed=True).modifiers == {}
    assert swing(15, fist, target_armed=True).provokes
    assert not swing(15, fist, target_armed=True, weapon_group_unarmed=True).provokes


def test_soft_cover_adds_4_defence_against_ranged_attacks_only():
    assert swing(15, Weapon(ranged=True), soft_cover=True).defence == 4
    assert swing(15, SWORD, soft_cover=True).defence == 0


def test_squeezing_costs_4_attack_and_4_defence():
    out = swing(15, squeezing=True, target_squeezing=True, target=Sheet(defence=6))
    assert (out.modifiers, out.defence) == ({"squeezing": -4}, 2)


def test_flanking_adds_2_unless_the_target_ignores_the_flanker():
    assert swing(15, flanking=True).modifiers == {"flanking": 2}
    out = swing(15, flanking=True, flanker_ignored=True, target=Sheet(defence=6, dex=14))
    assert (out.modifiers, out.defence, out.target_provokes) == ({}, 4, True)


def test_hurried_attack_costs_4_and_hits_twice():
    out = swing(15, hurried=True)
    assert (out.modifiers, len(out.hits), [h.hit for h in out.hits]) == ({"hurried": -4}, 2, [1, 2])
    assert swing(15, hurried=True, rapid=True).modifiers == {"hurried": -2}


def test_hurried_critical_makes_both_hits_critical():
    out = swing(20, hurried=True, table={"confirm": [20]})
    assert [h.critical for h in out.hits] == [True, True]


def test_iterative_adds_a_hit_per_full_5_capped_by_bab():
    assert len(swing(19, bab=11).hits) == 1
    assert len(swing(19, bab=11, iterative=True).hits) == 3  # beat by 20: 4 extra, BAB 11 allows 2
    assert len(swing(19, bab=11, iterative=True, rulings=Rulings(iterative_cap="none")).hits) == 5
    assert len(swing(19, bab=5, iterative=True).hits) == 1  # BAB 1-5: no extra hit


def test_iterative_critical_applies_to_the_first_hit_only():
    out = swing(20, bab=11, iterative=True, table={"confirm": [10]})
    assert (out.extra_hits, [h.critical for h in out.hits]) == (2, [True, False, False])


def test_hurried_iterative_hits_twice_per_hit_and_crits_the_first_pair():
    out = swing(20, bab=11, hurried=True, iterative=True, table={"confirm": [10]})
    assert [h.critical for h in out.hits] == [True, True, False, False, False, False]
    first_only = Rulings(hurried_iterative_crits="first_only")
    out = swing(20, bab=11, hurried=True, iterative=True, table={"confirm": [10]}, rulings=first_only)
    assert [h.critical for h in out.hits] == [True, False, False, False, False, False]


def test_multi_weapon_penalty_is_6_when_every_weapon_is_one_handed():
    assert swing(15, SWORD, SWORD).modifiers == {"multi_weapon": -6}
    assert swing(15, SWORD, SWORD, multi_weapon_fighting=True).modifiers == {"multi_weapon": -4}


def test_multi_weapon_penalty_is_4_with_a_light_or_two_handed_weapon():
    assert swing(15, SWORD, Weapon(size="light")).modifiers == {"multi_weapon": -4}


def test_multi_weapon_uses_the_narrowest_threat_range_and_lowest_multiplier():
    wide, narrow = Weapon(damage="1", threat=18, multiplier=2), Weapon(damage="1", threat=19, multiplier=3)
    assert not swing(18, wide, narrow).threat
    out = swing(19, wide, narrow, table={"confirm": [20]})
    assert (out.critical, out.multiplier, out.hits[0].damage) == (True, 2, (1 + 1) * 2)


def test_multi_weapon_damage_is_applied_once():
    out = swing(20, SWORD, SWORD, bab=20, iterative=False, table={"confirm": [1]})
    assert [h.damage for h in out.hits] == [3 + 3]


def test_a_multi_weapon_blow_overcomes_only_dr_every_weapon_overcomes():
    silver = Weapon(damage="2", enhancement=1, types=("piercing", "silver"))
    steel = Weapon(damage="3", enhancement=2, types=("slashing",))
    assert swing(15, silver, steel).hits[0].also == ("magic",)


def test_energy_damage_is_not_multiplied_and_marked_to_ignore_dr():
    out = swing(20, SWORD, energy_damage=3, table={"confirm": [20]})
    assert (out.hits[0].damage, out.hits[0].energy) == (3 * 2 + 3, 3)


def test_coup_de_grace_is_an_automatic_critical_that_provokes():
    out = attack(
        Sheet(),
        Condition(wounds=2, lethal="stable"),
        AttackInputs(weapons=(SWORD,), coup_de_grace=True),
        Rulings(),
        Dice(1),
    )
    assert (out.roll, out.hit, out.critical, out.provokes) == (None, True, True, True)
    assert (out.hits[0].damage, out.hits[0].coup_de_grace) == (6, True)


def test_coup_de_grace_needs_a_helpless_target():
    with pytest.raises(Refusal):
        attack(Sheet(), Condition(), AttackInputs(weapons=(SWORD,), coup_de_grace=True), Rulings(), Dice(1))
    bound = AttackInputs(weapons=(SWORD,), coup_de_grace=True, target_helpless=True)
    assert attack(Sheet(), Condition(), bound, Rulings(), Dice(1)).critical


def test_coup_de_grace_cannot_be_hurried():
    with pytest.raises(BadInput):
        AttackInputs(weapons=(SWORD,), coup_de_grace=True, hurried=True)


def test_bad_weapon_damage_notation_is_bad_input():
    with pytest.raises(BadInput):
        Weapon(damage="3 swords")


def test_parse_weapon_reads_the_command_line_spec():
    rapier = parse_weapon("rapier:attack=15,damage=3,enhancement=3,threat=18,types=piercing+silver")
    assert rapier == Weapon(
        name="rapier", attack=15, damage="3", enhancement=3, threat=18, types=("piercing", "silver")
    )
    assert parse_weapon("fist:unarmed,light") == Weapon(name="fist", unarmed=True, size="light")


@pytest.mark.parametrize("spec", ["axe:sharp", "axe:threat=21", "axe:damage=lots", "axe:types=plasma", "axe:attack=x"])
def test_a_bad_weapon_spec_is_bad_input(spec):
    with pytest.raises(BadInput):
        parse_weapon(spec)


def test_attack_inputs_copy_the_attackers_sheet():
    inputs = AttackInputs.by("Ivanior", Sheet(bab=12, strength=14, dex=16, size=0), (SWORD,), hurried=True)
    assert (inputs.attacker, inputs.bab, inputs.strength, inputs.dex, inputs.hurried) == ("Ivanior", 12, 14, 16, True)


def test_the_tables_damage_dice_are_dealt_to_each_hit_and_weapon_in_rolled_order():
    dice = Dice(11, table={"attack": [15], "damage": [4, 6]})
    inputs = AttackInputs(weapons=(Weapon(name="club", damage="1d6"),), hurried=True, strength=14, bab=5)
    out = attack(Sheet(defence=5), Condition(), inputs, Rulings(), dice)
    assert [h.damage for h in out.hits] == [4 + 2, 6 + 2]
    rolls = {r.purpose: (r.faces, r.source) for r in dice.record().rolls}
    assert rolls["damage:1:1"] == ((4,), "table") and rolls["damage:2:1"] == ((6,), "table")
    assert dice.unused() == {}


def test_damage_dice_that_do_not_fit_the_attack_are_bad_input():
    with pytest.raises(BadInput, match="rolls 1 damage die; the table gave 2"):
        swing(15, Weapon(damage="1d6"), target=Sheet(defence=5), table={"damage": [4, 6]})
    with pytest.raises(BadInput, match="misses"):
        swing(1, Weapon(damage="1d6"), table={"damage": [4]})
    with pytest.raises(BadInput, match="d6 cannot show 7"):
        swing(15, Weapon(damage="1d6"), table={"damage": [7]})


def test_rerolled_critical_dice_from_the_table_need_its_confirmation_roll():
    rulings = Rulings(critical_damage="reroll_dice")
    with pytest.raises(BadInput, match="confirmation"):
        swing(20, Weapon(damage="1d6"), rulings=rulings, table={"damage": [4, 5]})
    out = swing(20, Weapon(damage="1d6"), rulings=rulings, table={"confirm": [19], "damage": [4, 5]})
    assert out.critical and out.hits[0].damage == 4 + 5
