"""Dice notation and the recordable generator (no database)."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from chronicle.domain.dice import Dice, face, parse
from chronicle.domain.dice_tree import BinaryOp, DiceTerm, Negative, Number, walk
from chronicle.domain.errors import BadInput
from chronicle.domain.model import INT64_MAX, INT64_MIN
from chronicle.domain.notation import _RANGE as RANGE
from chronicle.domain.notation import parse_tree


@pytest.mark.parametrize(
    "notation",
    [
        "2d6",
        "d20",
        "d%",
        "d100",
        "2d6+1d4-1",
        "4d6kh3",
        "2d20kl1",
        "4d6dl1",
        "3",
        "-1+d6",
        "1000d1000",
        "(1d8+3)*2",
        "-1d4",
        "2d6*2",
        "1d20/2",
        "((d6))",
        "8-2",
    ],
)
def test_contract_notation_parses(notation):
    assert parse(notation).root


@pytest.mark.parametrize(
    "notation",
    [
        "2d",
        '__import__("os")',
        "d0",
        "1001d6",
        "2d1001",
        "4d6kh5",
        "",
        "d6;d6",
        "1e3",
        "2 d 6 x",
        "2d6*",
        "(1d6",
        "1d6)",
        "()",
        "--1d4",
        "2**3",
        "1d6//2",
        "x" * 300,
    ],
)
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


def test_multiplication_and_parentheses_follow_arithmetic():
    assert Dice(1, table={"roll": [5]}).evaluate("(1d8+3)*2").total == 16
    assert Dice(1, table={"roll": [5]}).evaluate("1d8+3*2").total == 11


def test_a_leading_minus_negates_the_roll():
    assert Dice(1, table={"roll": [3]}).evaluate("-1d4").total == -3
    assert Dice(1, table={"roll": [3]}).evaluate("-1d4+10").total == 7


def test_division_rounds_down_as_the_rules_do():
    """the rule texts' "Rounding: always down (floor) unless stated", so -7/2 is -4, not -3."""
    assert Dice(1).evaluate("7/2").total == 3
    assert Dice(1).evaluate("-7/2").total == -4
    assert Dice(1, table={"roll": [5]}).evaluate("1d6/2").total == 2


def test_every_die_stays_in_the_result_in_rolled_order_inside_any_expression():
    result = Dice(1, table={"roll": [1, 6, 6, 2, 4]}).evaluate("(4d6kh3+1d4)*2")
    assert result.faces == (1, 6, 6, 2, 4)
    assert result.kept == (False, True, True, True, True)
    assert result.total == (14 + 4) * 2


def test_a_flat_sum_draws_its_dice_as_it_always_did_so_old_events_still_verify():
    """Before parentheses existed, each term drew its dice in written order from the event's sequence."""
    rolled = Dice(7).evaluate("2d6+1d4-1")
    assert rolled.faces == (face(7, 0, 6), face(7, 1, 6), face(7, 2, 4))
    assert rolled.total == sum(rolled.faces) - 1


def test_the_tree_is_written_back_without_needless_parentheses_or_spaces():
    assert str(parse_tree("( 1d8 + 3 ) * 2")) == "(1d8+3)*2"
    assert str(parse_tree("((2))*(d6)")) == "2*1d6"
    assert str(parse_tree("1-(2-3)")) == "1-(2-3)"
    assert str(parse_tree("-(1d4+1)")) == "-(1d4+1)"
    assert str(parse_tree("d%")) == "1d100"


@pytest.mark.parametrize(
    ("notation", "hint"),
    [("2-8", "2d4"), ("4-10", "2d4+2"), ("3-18", "3d6"), ("1-6", "1d6"), ("2-7", "1d6+1"), ("2-8+2", "2d4+2")],
)
def test_constants_that_read_like_a_range_are_refused_with_the_dice_to_write(notation, hint):
    with pytest.raises(BadInput, match=f"write the dice that roll it, e.g. {hint}$".replace("+", r"\+")):
        parse(notation)


def test_a_higher_number_first_is_plain_subtraction():
    assert Dice(1).evaluate("8-2").total == 6


@pytest.mark.parametrize("notation", ["5/0", "1d6/(1d2-1)", "1d6/(1d4-2)"])
def test_a_divisor_that_can_be_zero_is_refused_before_any_roll(notation):
    with pytest.raises(BadInput, match="0"):
        parse(notation)


@pytest.mark.parametrize(
    "notation",
    [
        "9223372036854775808",
        "99999999999999999999999d6",
        "1d6+" + "9" * 150,
        "9223372036854775807*2",
        "-9223372036854775807-2",
        "1000d1000*9223372036854775",
    ],
)
def test_numbers_beyond_64_bits_are_bad_input_naming_the_limit(notation):
    with pytest.raises(BadInput, match="64-bit limit"):
        parse(notation)


def test_the_largest_64_bit_numbers_are_fine():
    assert Dice(1).evaluate("9223372036854775807").total == INT64_MAX
    assert Dice(1).evaluate("-9223372036854775807-1").total == INT64_MIN


def _leaves():
    numbers = st.builds(Number, st.integers(0, 10**6))
    plain = st.builds(DiceTerm, st.integers(1, 30), st.integers(1, 100))
    kept = st.integers(1, 30).flatmap(
        lambda n: st.builds(
            DiceTerm, st.just(n), st.integers(1, 100), st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(0, n)
        )
    )
    return numbers | plain | kept


def _trees():
    positive = st.builds(Number, st.integers(1, 1000)) | st.builds(DiceTerm, st.integers(1, 30), st.integers(1, 100))
    return st.recursive(
        _leaves(),
        lambda inner: (
            st.builds(Negative, inner)
            | st.builds(BinaryOp, inner, st.sampled_from(["+", "-", "*"]), inner)
            | st.builds(BinaryOp, inner, st.just("/"), positive)
        ),
        max_leaves=12,
    )


def _within_limits(tree) -> bool:
    """Trees the grammar accepts: short enough, every value within 64 bits, not constants that read like a
    range (`2-8`, `0-1+0`: the notation refuses them, naming the dice that roll it)."""
    text = str(tree)
    in_range = all(INT64_MIN <= n.bounds[0] and n.bounds[1] <= INT64_MAX for n in walk(tree))
    ranged = RANGE.fullmatch(text)
    return len(text) <= 200 and in_range and not (ranged and int(ranged[1]) < int(ranged[2]))


@given(_trees())
def test_the_written_tree_parses_back_to_the_same_tree(tree):
    assume(_within_limits(tree))
    assert parse_tree(str(tree)) == tree


@given(_trees(), st.integers(0, 2**63 - 1))
def test_every_total_lies_within_the_bounds_and_every_face_on_its_die(tree, seed):
    assume(_within_limits(tree))
    expression = parse(str(tree))
    result = Dice(seed).evaluate(expression)
    low, high = expression.bounds
    assert low <= result.total <= high
    sides = [term.sides for term in expression.dice for _ in range(term.count)]
    assert len(result.faces) == len(sides) == len(result.kept)
    assert all(1 <= f <= s for f, s in zip(result.faces, sides, strict=True))
