"""Mugging saves, grabs, holds and monster Strength (seed: Mugging, Grab)."""

import pytest

from chronicle.domain.adnd2e import (
    BreakHoldInputs,
    Condition,
    GrabInputs,
    MugInputs,
    Rulings,
    Strength,
    break_hold,
    grab,
    monster_strength,
    mug,
    mug_save,
    parse_sheet,
    size_modifier,
)
from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput, Refusal

OGRE = parse_sheet({"hp": "26", "hd": "4", "size": "large", "height": "108", "str": "18/00"}, kind="monster")
HUMAN = parse_sheet({"hp": "10", "level": "1", "str": "16", "height": "70"})


def test_mug_save_seed_example_thief_9_vs_4_hd_ogre_needs_17():
    assert mug_save(12, 9, 4) == 17


def test_mug_save_is_lowered_by_a_stronger_victim():
    assert mug_save(12, 2, 6) == 8


def test_mug_failed_save_knocks_out_for_2d8_rounds():
    dice = Dice(1, table={"save": [16], "knockout_rounds": [3, 8]})
    outcome = mug(OGRE, Condition(), MugInputs(save_number=12, mugger_level=9, mugger_height=60), Rulings(), dice)
    assert outcome.model_dump() == {"save_number": 17, "save_roll": 16, "saved": False, "knockout_rounds": 11}


def test_mug_save_at_the_number_succeeds():
    dice = Dice(1, table={"save": [17]})
    outcome = mug(OGRE, Condition(), MugInputs(save_number=12, mugger_level=9, mugger_height=60), Rulings(), dice)
    assert (outcome.saved, outcome.knockout_rounds) == (True, None)


def test_mug_refused_against_a_victim_over_twice_the_thiefs_height():
    with pytest.raises(Refusal):
        mug(OGRE, Condition(), MugInputs(save_number=12, mugger_level=9, mugger_height=53), Rulings(), Dice(1))


def test_mug_refused_where_backstab_is_not_allowed():
    slime = parse_sheet({"hp": "20", "hd": "3", "backstab": "false"}, kind="monster")
    with pytest.raises(Refusal):
        mug(slime, Condition(), MugInputs(save_number=12, mugger_level=9), Rulings(), Dice(1))


def test_mug_base_save_number_out_of_range_is_bad_input():
    with pytest.raises(BadInput):
        mug(HUMAN, Condition(), MugInputs(save_number=0), Rulings(), Dice(1))


def test_monster_strength_seed_example_nightmare_is_20():
    assert monster_strength("2-8/4-10/4-10", carrier=True) == 20


def test_monster_strength_single_attack_not_carrier():
    assert monster_strength("1-8") == 8
    assert monster_strength("1d8/1d8/2d6") == 14


def test_monster_strength_bad_notation_is_bad_input():
    with pytest.raises(BadInput):
        monster_strength("bite")


@pytest.mark.parametrize(
    ("grabber", "target", "player_race", "modifier"),
    [
        ("medium", "small", False, 3),
        ("medium", "large", False, -6),
        ("medium", "medium", False, 0),
        ("medium", "small", True, 1),
        ("small", "medium", True, -3),
    ],
)
def test_grab_monster_size_modifier_halved_toward_zero_for_player_races(grabber, target, player_race, modifier):
    assert size_modifier(grabber, target, player_race) == modifier


def contest_against(sheet, rolls, target="object", strength="16", **inputs):
    dice = Dice(1, table={"grab_round": rolls})
    grabbing = GrabInputs(target=target, grabber_strength=Strength.parse(strength), **inputs)
    return grab(sheet, Condition(), grabbing, Rulings(), dice), dice


def test_grab_object_better_margin_wins():
    outcome, _ = contest_against(HUMAN, [5, 4], strength="15")  # margins 10 vs 12
    assert (outcome.won, outcome.rolls) == (False, ((5, 4),))


def test_grab_object_all_18s_count_18_and_ties_go_to_higher_percentile():
    holder = parse_sheet({"hp": "10", "str": "18/30"})
    outcome, _ = contest_against(holder, [10, 10], strength="18/40")
    assert (outcome.won, outcome.first_strength, outcome.second_strength) == (True, "18/40", "18/30")


def test_grab_object_other_ties_are_rerolled_as_one_attack():
    outcome, dice = contest_against(HUMAN, [6, 6, 9, 3])  # 16 vs 16: margins 10 = 10, re-rolled; then 7 < 13
    assert (outcome.won, outcome.rolls) == (False, ((6, 6), (9, 3)))
    assert [r.purpose for r in dice.record().rolls] == ["grab_round", "grab_round"]


def test_grab_person_one_handed_uses_the_reduced_strength():
    outcome, _ = contest_against(HUMAN, [1, 1], target="person", strength="18/76")
    assert (outcome.first_strength, outcome.second_strength, outcome.won) == ("18", "16", True)


def test_grab_monster_applies_the_size_modifier():
    monster = parse_sheet({"hp": "30", "hd": "5", "size": "large"}, kind="monster")
    outcome, _ = contest_against(monster, [10, 1], target="monster", strength="17", target_strength=Strength(score=20))
    assert (outcome.first_strength, outcome.second_strength, outcome.won) == ("11", "20", False)


def test_grab_target_without_strength_is_bad_input():
    with pytest.raises(BadInput):
        contest_against(parse_sheet({"hp": "5"}), [1, 2])


def test_breaking_a_hold_by_the_strength_contest():
    held = Condition(held_by="Brute")
    dice = Dice(1, table={"hold_round": [3, 9]})
    outcome = break_hold(HUMAN, held, BreakHoldInputs(holder_strength=Strength.parse("18/00")), Rulings(), dice)
    assert (outcome.first_strength, outcome.second_strength, outcome.won) == ("16", "18/51", True)


def test_breaking_a_hold_needs_a_hold():
    with pytest.raises(Refusal):
        break_hold(HUMAN, Condition(), BreakHoldInputs(holder_strength=Strength(score=12)), Rulings(), Dice(1))
