"""Attack modifiers and refusals (seed: Weapons in defense and attack, Mugging, Sap, Grab)."""

import pytest

from chronicle.domain.adnd2e import AttackInputs, Condition, Rulings, attack, attack_modifiers, parse_sheet
from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput, Refusal

GUARD = parse_sheet({"hp": "12", "level": "2", "ac": "4", "dex": "16", "shield": "1", "height": "70"})


def mods(sheet=GUARD, condition=Condition(), rulings=Rulings(), **inputs):
    return attack_modifiers(sheet, condition, AttackInputs(**inputs), rulings)


def test_normal_attack_has_no_modifiers():
    assert mods(weapon="long sword").model_dump() == {
        "to_hit": 0,
        "damage": 0,
        "initiative": 0,
        "target_ac": 4,
        "automatic_hit": False,
        "defender_strikes_first": False,
        "defender_to_hit": 0,
        "defender_damage": 0,
    }


def test_armed_nonlethal_is_minus_4_to_hit():
    assert mods(maneuver="armed-nonlethal", weapon="long sword").to_hit == -4


def test_subdual_is_minus_4_to_hit():
    assert mods(maneuver="subdual", weapon="battle axe").to_hit == -4


@pytest.mark.parametrize("weapon", ["arrow", "long bow", "sling", "war hammer", "warhammer", "footman's mace"])
def test_armed_nonlethal_only_with_controllable_weapons(weapon):
    with pytest.raises(Refusal):
        mods(maneuver="armed-nonlethal", weapon=weapon)


def test_armed_nonlethal_needs_a_weapon():
    with pytest.raises(Refusal):
        mods(maneuver="armed-nonlethal")


@pytest.mark.parametrize("maneuver", ["punch", "wrestle", "overbear", "martial-arts"])
def test_weapons_in_defense_strike_first_at_plus_4(maneuver):
    result = mods(maneuver=maneuver, defender_armed=True)
    assert (result.defender_strikes_first, result.defender_to_hit, result.defender_damage) == (True, 4, 4)


def test_weapons_in_defense_only_when_the_defender_is_armed():
    assert not mods(maneuver="punch").defender_strikes_first


def test_after_round_one_of_wrestling_only_small_weapons():
    assert mods(weapon="dagger", weapon_size="small", wrestling_round=2).to_hit == 0
    assert mods(weapon="long sword", wrestling_round=1).to_hit == 0
    with pytest.raises(Refusal):
        mods(weapon="long sword", wrestling_round=2)


def test_sap_is_minus_8_and_plus_1_initiative():
    result = mods(maneuver="sap", weapon="club")
    assert (result.to_hit, result.initiative, result.automatic_hit) == (-8, 1, False)


def test_sap_bare_handed_is_allowed():
    assert mods(maneuver="sap").to_hit == -8


def test_sap_only_small_or_medium_victims():
    with pytest.raises(Refusal):
        mods(sheet=parse_sheet({"hp": "30", "size": "large"}), maneuver="sap")


def test_sap_never_with_missiles():
    with pytest.raises(Refusal):
        mods(maneuver="sap", weapon="sling stone", missile=True)


def test_sap_hits_a_sleeping_or_magically_held_victim_automatically():
    assert mods(condition=Condition(asleep=True), maneuver="sap").automatic_hit
    assert mods(condition=Condition(magically_held=True), maneuver="sap").automatic_hit


def test_mugging_is_plus_4_and_loses_shield_and_dex():
    result = mods(maneuver="mug", weapon="club", attacker_height=60)
    assert (result.to_hit, result.target_ac) == (4, 4 + 1 + 2)


def test_mugging_a_bare_head_is_ac_10_when_helmets_are_tracked():
    bare = parse_sheet({"ac": "2", "helmet": "false"})
    assert mods(sheet=bare, maneuver="mug", rulings=Rulings(helmets_tracked=True)).target_ac == 10
    assert mods(sheet=bare, maneuver="mug").target_ac == 2


def test_mugging_only_where_backstab_allowed():
    with pytest.raises(Refusal):
        mods(sheet=parse_sheet({"backstab": "false"}), maneuver="mug")


def test_mugging_not_a_victim_more_than_twice_the_thiefs_height():
    assert mods(maneuver="mug", attacker_height=35).to_hit == 4  # 70 = twice 35
    with pytest.raises(Refusal):
        mods(maneuver="mug", attacker_height=34)


def test_grab_is_a_called_shot_minus_4_plus_1_initiative():
    for maneuver in ("grab-object", "grab-person", "grab-monster"):
        result = mods(maneuver=maneuver)
        assert (result.to_hit, result.initiative) == (-4, 1)


def test_grab_needs_a_free_hand():
    with pytest.raises(Refusal):
        mods(maneuver="grab-object", free_hand=False)


def test_held_attacker_is_minus_4_except_wrestling():
    assert mods(weapon="dagger", attacker_held=True).to_hit == -4
    assert mods(maneuver="wrestle", attacker_held=True).to_hit == 0


def test_attack_roll_hits_at_thac0_minus_ac():
    dice = Dice(3, table={"attack": [12]})
    outcome = attack(
        GUARD,
        Condition(),
        AttackInputs(maneuver="armed-nonlethal", weapon="long sword", attacker_thac0=12),
        Rulings(),
        dice,
    )
    assert (outcome.roll, outcome.needed, outcome.hit) == (12, 8, True)  # 12 - 4 >= 8
    dice = Dice(3, table={"attack": [11]})
    assert not attack(
        GUARD,
        Condition(),
        AttackInputs(maneuver="armed-nonlethal", weapon="long sword", attacker_thac0=12),
        Rulings(),
        dice,
    ).hit


def test_attack_natural_20_hits_and_natural_1_misses():
    hard = AttackInputs(maneuver="sap", attacker_thac0=20)
    assert attack(GUARD, Condition(), hard, Rulings(), Dice(1, table={"attack": [20]})).hit
    easy = AttackInputs(attacker_thac0=1)
    assert not attack(GUARD, Condition(), easy, Rulings(), Dice(1, table={"attack": [1]})).hit


def test_automatic_sap_hit_rolls_no_attack():
    dice = Dice(1)
    outcome = attack(GUARD, Condition(asleep=True), AttackInputs(maneuver="sap"), Rulings(), dice)
    assert (outcome.hit, outcome.roll, dice.record().rolls) == (True, None, ())


def test_attack_roll_out_of_range_is_bad_input():
    with pytest.raises(BadInput):
        attack(GUARD, Condition(), AttackInputs(), Rulings(), Dice(1, table={"attack": [21]}))
