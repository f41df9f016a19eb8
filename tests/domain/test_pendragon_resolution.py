"""d20 resolution, opposed rolls and recorded checks (docs/rulings.md, PenDragon Pass, Resolution)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_pendragon_support import act, character

from chronicle.domain.errors import Refusal
from chronicle.domain.pendragon import Checked, ExperienceRolled, Rulings, oppose, resolve
from chronicle.domain.pendragon.resolution import Result


@pytest.mark.parametrize(
    "value, roll, result",
    [
        (12, 12, "critical"),
        (12, 5, "success"),
        (12, 13, "failure"),
        (12, 20, "fumble"),
        (20, 20, "critical"),
        (20, 19, "success"),
        (0, 1, "failure"),
        (0, 20, "fumble"),
    ],
)
def test_a_d20_against_a_value(value, roll, result):
    assert resolve(value, roll).result == result


def test_a_value_over_twenty_adds_its_excess_and_twenty_or_more_is_critical():
    assert resolve(23, 17).total == 20 and resolve(23, 17).result == "critical"
    assert resolve(23, 16).result == "success"
    assert resolve(25, 20).result == "critical"  # never a fumble


@given(st.integers(1, 19), st.integers(1, 20))
def test_under_twenty_only_the_value_itself_is_critical(value, roll):
    result = resolve(value, roll).result
    assert (result == "critical") == (roll == value)
    assert (result == "fumble") == (roll == 20)


@given(st.integers(21, 40), st.integers(1, 20))
def test_over_twenty_nothing_fails(value, roll):
    assert resolve(value, roll).result in ("critical", "success")


def test_opposed_both_succeed_the_higher_wins_and_the_loser_has_a_partial_success():
    opposed = oppose(resolve(15, 10), resolve(15, 7))
    assert opposed.winner == "self" and opposed.opponent.result == "partial_success"


def test_opposed_equal_successes_tie():
    opposed = oppose(resolve(15, 9), resolve(12, 9))
    assert (opposed.winner, opposed.tie) == ("none", True)


def test_opposed_a_critical_beats_a_success():
    assert oppose(resolve(15, 3), resolve(12, 12)).winner == "opponent"


def test_opposed_two_criticals_tie_and_two_failures_have_no_winner():
    assert oppose(resolve(10, 10), resolve(12, 12)).tie is True
    assert (oppose(resolve(5, 10), resolve(5, 20)).winner, oppose(resolve(5, 10), resolve(5, 20)).tie) == (
        "none",
        False,
    )


def test_opposed_a_success_beats_a_failure():
    assert oppose(resolve(5, 10), resolve(12, 11)).winner == "opponent"


@given(st.integers(1, 30), st.integers(1, 20), st.integers(1, 30), st.integers(1, 20))
def test_opposed_is_symmetric(a, ra, b, rb):
    forward, backward = oppose(resolve(a, ra), resolve(b, rb)), oppose(resolve(b, rb), resolve(a, ra))
    swap = {"self": "opponent", "opponent": "self", "none": "none"}
    assert backward.winner == swap[forward.winner] and backward.tie == forward.tie


def test_a_recorded_check_applies_its_modifier_and_can_earn_a_check():
    hero = character(sword=15)
    event = act(hero, Checked, rolls={"check": [9]}, what="sword", modifier=-5, award_check=True)
    assert event.outcome.value == 10 and event.outcome.roll.result == Result.success and event.outcome.checked
    assert hero.condition.checks == ("sword",)


def test_a_check_opposed_to_another_character_copies_its_value():
    hero = character(sword=15)
    event = act(
        hero,
        Checked,
        rolls={"check": [9], "opponent": [12]},
        what="sword",
        opponent="Orlmarth",
        opponent_value=14,
        award_check=True,
    )
    assert event.outcome.winner == "opponent" and event.outcome.roll.result == "partial_success"
    assert not event.outcome.checked and hero.condition.checks == ()


def test_only_pow_among_statistics_can_be_checked():
    with pytest.raises(Refusal):
        act(character(str=15), Checked, rolls={"check": [3]}, what="str", award_check=True)


def test_experience_a_month_after_an_adventure_needs_the_ruling():
    hero = character(sword=15)
    act(hero, Checked, rolls={"check": [9]}, what="sword", award_check=True)
    with pytest.raises(Refusal, match="Winter"):
        act(hero, ExperienceRolled, rolls={"experience:sword": [18]})
    event = act(
        hero, ExperienceRolled, Rulings(experience_timing="month_after_adventure"), rolls={"experience:sword": [18]}
    )
    assert event.outcome.model_dump(mode="json")["experience"] == [{"what": "sword", "roll": 18, "from": 15, "to": 16}]
    assert hero.sheet.value("sword") == 16 and hero.condition.checks == ()
    assert hero.condition.increases[-1].cause == "experience"
