"""Dice notation and the recordable generator (no database)."""

import pytest
from hypothesis import given, strategies as st

from chronicle.domain.dice import Dice, face, parse
from chronicle.domain.errors import BadInput


@pytest.mark.parametrize("notation", ["2d6", "d20", "d%", "d100", "2d6+1d4-1", "4d6kh3", "2d20kl1", "4d6dl1", "3", "-1+d6",
                                      "1000d1000"])
def test_contract_notation_parses(notation):
    assert parse(notation).terms


@pytest.mark.parametrize("notation", ["2d", '__import__("os")', "d0", "1001d6", "2d1001", "4d6kh5", "", "2d6*2", "d6;d6",
                                      "1e3", "2 d 6 x"])
def test_anything_else_is_bad_input(notation):
    with pytest.raises(BadInput):
        parse(notation)


def test_keep_highest_keeps_the_best_faces_and_records_all():
    result = Dice(1, table={"roll": [1, 6, 6, 2]}).evaluate("4d6kh3")
    assert result.total == 14
    assert result.faces == (1, 6, 6, 2)
    assert result.kept == (False, True, True, True)
    assert result.source == "table"


def test_keep_lowest_and_drop_lowest():
    assert Dice(1, table={"roll": [5, 2]}).evaluate("2d20kl1").total == 2
    assert Dice(1, table={"roll": [3, 1, 4, 6]}).evaluate("4d6dl1").total == 13


def test_constants_and_subtraction():
    assert Dice(1, table={"roll": [3, 5, 2]}).evaluate("2d6+1d4-1").total == 3 + 5 + 2 - 1


def test_table_faces_must_match_the_dice():
    with pytest.raises(BadInput):
        Dice(1, table={"roll": [3]}).evaluate("2d6")
    with pytest.raises(BadInput):
        Dice(1, table={"roll": [3, 7]}).evaluate("2d6")


def test_a_table_roll_outside_the_die_is_bad_input():
    for value in (0, 21):
        with pytest.raises(BadInput):
            Dice(1, table={"save": [value]}).d(20, "save")


def test_the_record_reproduces_every_face():
    dice = Dice(12345)
    first = dice.evaluate("10d6", "damage")
    again = Dice.replay(dice.record()).evaluate("10d6", "damage")
    assert again.faces == first.faces


def test_a_replay_that_needs_more_dice_continues_the_same_sequence():
    dice = Dice(99)
    dice.roll(6, 2, "damage")
    replay = Dice.replay(dice.record())
    replay.roll(6, 2, "damage")
    extra = replay.roll(6, 2, "reroll")
    fresh = Dice(99)
    assert extra == fresh.roll(6, 4, "all")[2:]


@given(st.integers(min_value=0, max_value=2**63), st.integers(min_value=0, max_value=10**6), st.integers(1, 1000))
def test_faces_are_always_on_the_die(seed, index, sides):
    assert 1 <= face(seed, index, sides) <= sides


def test_faces_are_roughly_uniform():
    counts = [0] * 6
    for i in range(6000):
        counts[face(7, i, 6) - 1] += 1
    assert all(850 < c < 1150 for c in counts)
