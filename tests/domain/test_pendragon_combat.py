"""Feats, special tactics and weapon rules (seed: Feats; Special Combat Tactics; Skills)."""

import pytest
from test_pendragon_support import act, character

from chronicle.domain.errors import BadInput, NotFound, Refusal
from chronicle.domain.pendragon import FeatAttempted, Rulings, TacticResolved


def tactic(rolls, rulings=None, **inputs):
    hero = character(sword=15, dex=12, sorcery=14, bow=14, battle=10, riding=16)
    return hero, act(hero, TacticResolved, rulings, rolls=rolls, **inputs).outcome


# Feats ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ruling, roll, succeeds",
    [
        ("half_floor_inclusive", 7, True),
        ("half_floor_inclusive", 8, False),
        ("half_floor_exclusive", 6, True),
        ("half_floor_exclusive", 7, False),
        ("half_ceil_inclusive", 8, True),
        ("half_ceil_inclusive", 9, False),
    ],
)
def test_a_feat_needs_half_the_value_per_the_ruling(ruling, roll, succeeds):
    hero = character(sword=15)
    event = act(
        hero,
        FeatAttempted,
        Rulings(feat_threshold=ruling),
        rolls={"feat": [roll]},
        what="sword",
        description="leap from the chariot yoke",
    )
    assert event.outcome.result == ("critical" if succeeds else "fumble")


def test_a_failed_feat_is_a_fumble_with_knockdown():
    hero = character(str=14)
    assert act(hero, FeatAttempted, rolls={"feat": [12]}, what="str", description="lift the gate").outcome.knockdown
    assert hero.condition.knocked_down


def test_no_feat_with_riding_traits_or_pow():
    for what in ("riding", "valorous", "pow"):
        with pytest.raises(Refusal):
            act(character(riding=16), FeatAttempted, what=what, description="ride up the cliff")
    with pytest.raises(NotFound):
        act(character(), FeatAttempted, what="axe", description="cleave")


# Attacking tactics --------------------------------------------------------------------------------


def test_break_shield_is_at_minus_five_and_damage_over_six_shatters():
    _, out = tactic(
        {"check": [9], "opponent": [15], "damage": [2, 2, 2, 1]},
        tactic="break-shield",
        skill="sword",
        opponent_value=12,
        damage="4d6",
    )
    assert (out.modifier, out.rolls["attack"].value, out.winner) == (-5, 10, "self")
    assert out.effects == {"damage": 7, "shattered": True}


@pytest.mark.parametrize("ruling, shattered", [("exceed", False), ("equal_or_exceed", True)])
def test_break_shield_damage_equal_to_the_armour_follows_the_ruling(ruling, shattered):
    _, out = tactic(
        {"check": [9], "opponent": [15], "damage": [6]},
        Rulings(break_shield_needs=ruling),
        tactic="break-shield",
        skill="sword",
        opponent_value=12,
        damage="1d6",
    )
    assert out.effects["shattered"] is shattered


def test_break_shield_that_loses_rolls_no_damage():
    _, out = tactic(
        {"check": [14], "opponent": [5]}, tactic="break-shield", skill="sword", opponent_value=12, damage="4d6"
    )
    assert out.winner == "opponent" and out.effects == {"shattered": False}


def test_small_weapons_cannot_break_shields():
    with pytest.raises(Refusal, match="small weapon"):
        tactic({}, tactic="break-shield", skill="sword", opponent_value=12, damage="1d4", small_weapon=True)


def test_disarm_damage_over_str_throws_the_weapon_d6_minus_1_metres():
    _, out = tactic(
        {"check": [9], "opponent": [15], "damage": [6, 6], "distance": [1]},
        tactic="disarm",
        skill="sword",
        opponent_value=12,
        damage="2d6",
        opponent_str=11,
    )
    assert out.modifier == -5 and out.effects == {"damage": 12, "disarmed": True, "metres": 0}


def test_disarm_damage_not_over_str_fails():
    _, out = tactic(
        {"check": [9], "opponent": [15], "damage": [5, 6]},
        tactic="disarm",
        skill="sword",
        opponent_value=12,
        damage="2d6",
        opponent_str=11,
    )
    assert out.effects == {"damage": 11, "disarmed": False}


def test_great_blow_adds_a_d6_on_a_win():
    _, out = tactic(
        {"check": [9], "opponent": [15], "great_blow": [4]}, tactic="great-blow", skill="sword", opponent_value=12
    )
    assert (out.modifier, out.effects) == (-5, {"extra_damage": 4})


def test_flurry_critical_allows_a_second_unopposed_attack():
    _, out = tactic({"check": [15], "opponent": [3], "flurry": [8]}, tactic="flurry", skill="sword", opponent_value=12)
    assert out.winner == "self" and out.effects == {"second_attack": True, "second_hit": True}
    _, out = tactic({"check": [14], "opponent": [3]}, tactic="flurry", skill="sword", opponent_value=12)
    assert out.effects == {"second_attack": False}


def test_three_opponents_are_each_attacked_at_minus_ten():
    _, out = tactic(
        {"check": [4, 9, 12], "opponent": [2, 20, 11]},
        tactic="multiple-opponents",
        skill="sword",
        opponent_values=[10, 10, 10],
    )
    assert out.modifier == -10 and out.rolls["attack_1"].value == 5
    assert out.effects == {"wins": 1}  # 4 beats 2 at skill 5; 9 and 12 fail


def test_a_spell_with_an_attack_is_minus_five_to_both_under_the_earlier_reading():
    _, out = tactic(
        {"check": [9], "opponent": [15], "spell": [9]},
        Rulings(spell_attack_modifier="both_minus_5"),
        tactic="spell-with-attack",
        skill="sword",
        opponent_value=12,
        spell_skill="sorcery",
    )
    assert (out.rolls["attack"].value, out.rolls["spell"].value, out.effects["spell_cast"]) == (10, 9, True)


# Defence, formations, spears and shields -----------------------------------------------------------


def test_a_successful_dodge_avoids_the_blow():
    _, out = tactic({"check": [11]}, tactic="dodge", opponent_value=14)
    assert out.effects == {"avoided": True} and not out.knocked_down


def test_a_failed_dodge_falls_and_the_foe_hits_on_an_unopposed_success():
    hero, out = tactic({"check": [13], "opponent": [9]}, tactic="dodge", opponent_value=14)
    assert out.effects == {"avoided": False, "hit": True} and hero.condition.knocked_down


def test_dodge_and_fight_splits_the_skill():
    _, out = tactic(
        {"check": [6], "opponent": [4], "attack": [5]},
        tactic="dodge-and-fight",
        skill="sword",
        opponent_value=12,
        defence=9,
    )
    assert (out.rolls["attack"].value, out.rolls["attack_portion"].value) == (9, 6)
    assert out.effects == {"defended": True, "hit": True}


def test_dodge_and_fight_fumble_falls_without_attacking():
    hero, out = tactic(
        {"check": [20], "opponent": [4]}, tactic="dodge-and-fight", skill="sword", opponent_value=12, defence=9
    )
    assert out.knocked_down and "attack_portion" not in out.rolls and hero.condition.knocked_down


def test_dodge_and_fight_cannot_defend_with_more_than_the_skill():
    with pytest.raises(BadInput):
        tactic({}, tactic="dodge-and-fight", skill="sword", opponent_value=12, defence=16)


def test_facing_a_spear_is_minus_three_until_winning():
    _, out = tactic(
        {"check": [11], "opponent": [5]}, tactic="hold-off", skill="sword", opponent_value=12, side="facing"
    )
    assert (out.rolls["attack"].value, out.effects) == (12, {"held": False})
    _, out = tactic(
        {"check": [13], "opponent": [5]}, tactic="hold-off", skill="sword", opponent_value=12, side="facing"
    )
    assert out.effects == {"held": True}


def test_holding_a_spear_puts_the_foe_at_minus_three():
    _, out = tactic(
        {"check": [5], "opponent": [10]}, tactic="hold-off", skill="sword", opponent_value=12, side="holder"
    )
    assert out.rolls["opponent"].value == 9 and out.effects == {"held": True}
    _, out = tactic(
        {"check": [5], "opponent": [10]}, tactic="hold-off", skill="sword", opponent_value=12, side="holder", held=False
    )
    assert out.rolls["opponent"].value == 12 and out.winner == "opponent"


def test_a_large_shield_is_minus_three_and_adds_three_armour_on_a_partial_success():
    _, out = tactic({"check": [5], "opponent": [10]}, tactic="large-shield", skill="sword", opponent_value=12)
    assert out.rolls["attack"].value == 12 and out.effects == {"extra_armour": 3}
    _, out = tactic({"check": [11], "opponent": [10]}, tactic="large-shield", skill="sword", opponent_value=12)
    assert out.effects == {"extra_armour": 0}


def test_formation_the_seed_example_suboti_is_parried():
    """Suboti rolls 10 with her Sword, beating the spearman's 2; the shield man's Battle 10 +10 Defense rolls 9,
    a partial success: her blow lands, but he parries its damage."""
    _, out = tactic(
        {"check": [10], "spear": [2], "shield": [9]}, tactic="formation", skill="sword", spear_value=12, shield_value=20
    )
    assert out.effects == {"past_spear": True, "hit": True, "parried": True}


def test_formation_an_attack_stopped_by_the_spear_never_meets_the_shield():
    _, out = tactic({"check": [10], "spear": [11]}, tactic="formation", skill="sword", spear_value=12, shield_value=20)
    assert out.effects == {"past_spear": False, "hit": False} and "shield" not in out.rolls


def test_shields_against_missiles_are_minus_five_to_the_archer():
    _, out = tactic({"check": [9]}, tactic="missile-against-shield", skill="bow")
    assert out.rolls["attack"].value == 9 and out.effects == {"hit": True}


# Weapons -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("roll, weapon", [(7, "dropped"), (8, "broken")])
def test_a_fumbled_spell_weapon_is_dropped_on_d20_at_most_its_points_rune_points_double(roll, weapon):
    _, out = tactic({"weapon_save": [roll]}, tactic="spell-weapon-fumble", spell_points=3, rune_points=2)
    assert out.effects == {"roll": roll, "target": 7, "weapon": weapon}


@pytest.mark.parametrize("roll, weapon", [(4, "whole"), (5, "broken")])
def test_a_sword_tying_a_magic_non_sword_uses_the_same_save(roll, weapon):
    _, out = tactic({"weapon_save": [roll]}, tactic="sword-ties-magic-weapon", rune_points=2)
    assert out.effects["weapon"] == weapon


@pytest.mark.parametrize(
    "metal, theirs, broken", [("iron", "bronze", "opponent"), ("bronze", "iron", "self"), ("iron", "iron", "none")]
)
def test_iron_breaks_bronze_on_a_tie(metal, theirs, broken):
    _, out = tactic(
        {"check": [8], "opponent": [8]},
        tactic="sword-clash",
        skill="sword",
        opponent_value=12,
        metal=metal,
        opponent_metal=theirs,
    )
    assert out.tie and out.effects == {"broken": broken}


def test_no_sword_breaks_without_a_tie():
    _, out = tactic(
        {"check": [9], "opponent": [8]},
        tactic="sword-clash",
        skill="sword",
        opponent_value=12,
        metal="iron",
        opponent_metal="bronze",
    )
    assert out.effects == {"broken": "none"}


@pytest.mark.parametrize("weapon", ["main-gauche", "quarterstaff"])
def test_main_gauche_and_quarterstaff_stop_four_on_a_partial_success(weapon):
    _, out = tactic(
        {"check": [5], "opponent": [9]}, tactic="special-parry", skill="sword", opponent_value=12, weapon=weapon
    )
    assert out.effects == {"stops": 4, "broken": "none"}


def test_a_main_gauche_breaks_instead_of_the_rapier_on_tied_successes_against_a_sword():
    _, out = tactic(
        {"check": [9], "opponent": [9]},
        tactic="special-parry",
        skill="sword",
        opponent_value=12,
        weapon="main-gauche",
        against_sword=True,
    )
    assert out.effects == {"stops": 0, "broken": "main-gauche"}
    _, out = tactic(
        {"check": [9], "opponent": [9]},
        tactic="special-parry",
        skill="sword",
        opponent_value=12,
        weapon="quarterstaff",
        against_sword=True,
    )
    assert out.effects["broken"] == "none"
