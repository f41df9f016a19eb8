"""Potestas condition ladders, dying saves, exertion and natural healing (docs/rulings.md, Potestas)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronicle.domain.dice import Dice
from chronicle.domain.errors import Refusal
from chronicle.domain.potestas import Condition, DyingSaveInputs, RestInputs, Rulings, Sheet, dying_save, exert, rest
from chronicle.domain.potestas.condition import (
    DISABLING,
    DROPPING,
    WOUND,
    after_exertion,
    after_nonlethal_wound,
    after_wound,
)
from chronicle.domain.potestas.recovery import apply_dying_save, apply_rest, check_rest


def wound(condition, degree=WOUND, stable_becomes="dying", is_object=False):
    return after_wound(condition, degree, stable_becomes, is_object)


def rested(condition, **inputs):
    """The healing arithmetic alone: forced, so the dying and the dead rest too."""
    return apply_rest(condition, rest(Sheet(), condition, RestInputs(force=True, **inputs)))


def test_a_plain_wound_only_counts():
    assert wound(Condition()) == Condition(wounds=1)


def test_a_disabling_wound_disables():
    assert wound(Condition(), DISABLING).states == ["disabled"]


def test_another_wound_makes_a_disabled_character_dying():
    assert wound(Condition(wounds=1, lethal="disabled")).lethal == "dying"


def test_another_wound_kills_a_dying_character():
    assert wound(Condition(wounds=2, lethal="dying")).lethal == "dead"


def test_a_wound_while_stable_starts_dying_again_with_a_fresh_count():
    after = wound(Condition(wounds=2, lethal="stable"))
    assert (after.lethal, after.dying_saves, after.wounds) == ("dying", 0, 3)


def test_wound_while_stable_dead_ruling_kills():
    assert wound(Condition(wounds=2, lethal="stable"), stable_becomes="dead").lethal == "dead"


def test_a_lethal_wound_worsens_staggered_to_unconscious():
    assert wound(Condition(nonlethal_wounds=1, nonlethal="staggered")).states == ["unconscious"]


def test_another_nonlethal_wound_knocks_a_staggered_character_unconscious():
    assert after_nonlethal_wound(Condition(nonlethal_wounds=1, nonlethal="staggered"), WOUND).nonlethal == "unconscious"


def test_unconscious_ignores_further_nonlethal_wounds():
    out = Condition(nonlethal_wounds=2, nonlethal="unconscious")
    assert after_nonlethal_wound(out, DISABLING) == out


def test_a_staggering_nonlethal_wound_staggers_and_dropping_one_knocks_out():
    assert after_nonlethal_wound(Condition(), DISABLING).states == ["staggered"]
    assert after_nonlethal_wound(Condition(), DROPPING).states == ["unconscious"]


def test_the_tracks_are_independent():
    both = after_nonlethal_wound(wound(Condition(), DISABLING), DISABLING)
    assert (both.wounds, both.nonlethal_wounds, both.states) == (1, 1, ["disabled", "staggered"])


def test_a_disabled_object_is_destroyed():
    assert wound(Condition(), DISABLING, is_object=True).states == ["destroyed"]
    assert wound(Condition(wounds=1), DROPPING, is_object=True).states == ["destroyed"]


PRIOR = Rulings(dying_dc="10_plus_prior")  # the engine's earlier reading, kept for older campaigns


def save(condition, roll, fort=0, rulings=Rulings(), rounds=0):
    return dying_save(
        Sheet(fort=fort), condition, DyingSaveInputs(rounds=rounds), rulings, Dice(3, table={"save": [roll]})
    )


def saved(condition, roll, fort=0, rulings=Rulings(), rounds=0):
    """The condition after a dying save."""
    return apply_dying_save(condition, DyingSaveInputs(rounds=rounds), save(condition, roll, fort, rulings, rounds))


def test_the_first_dying_save_is_dc_10_with_wound_penalties():
    out = save(Condition(wounds=2, lethal="dying"), 11, fort=1)
    assert (out.dc, out.total, out.margin, out.result) == (10, 10, 0, "stable")


def test_under_10_plus_prior_each_dying_save_made_raises_the_dc_by_one():
    out = save(Condition(wounds=2, lethal="dying", dying_saves=3), 12, fort=1, rulings=PRIOR)
    assert (out.dc, out.total, out.result) == (13, 11, "dying")


def test_flat_10_dying_dc_ruling():
    assert save(Condition(lethal="dying", dying_saves=3), 10, rulings=Rulings(dying_dc="flat_10")).dc == 10


def test_a_successful_dying_save_makes_the_character_stable():
    after = saved(Condition(wounds=2, lethal="dying", dying_saves=1, rounds_unconscious=1), 15)
    assert (after.states, after.dying_saves, after.rounds_unconscious) == (["stable"], 0, 2)


def test_a_failed_dying_save_continues_dying_and_counts():
    dying = Condition(wounds=2, lethal="dying")
    after = saved(dying, 5)
    assert (after.states, after.dying_saves, after.rounds_unconscious) == (["dying"], 1, 1)


def test_die_by_margin_ruling_kills_on_a_bad_enough_failure():
    rulings = Rulings(dying_failure="die_by_margin", dying_death_margin=5)
    assert save(Condition(lethal="dying"), 5, rulings=rulings).result == "dead"
    assert save(Condition(lethal="dying"), 6, rulings=rulings).result == "dying"


def test_dying_save_naturals():
    assert save(Condition(wounds=15, lethal="dying"), 20).result == "stable"
    assert save(Condition(lethal="dying"), 1, fort=20).result == "dying"


def test_only_the_dying_make_dying_saves():
    with pytest.raises(Refusal):
        save(Condition(wounds=1, lethal="disabled"), 10)


def test_exertion_makes_disabled_dying_and_staggered_unconscious():
    both = Condition(wounds=1, nonlethal_wounds=1, lethal="disabled", nonlethal="staggered")
    assert exert(Sheet(), both).worsened == ("unconscious", "dying")
    assert after_exertion(both).states == ["unconscious", "dying"]


def test_exertion_of_a_fit_character_changes_nothing():
    assert exert(Sheet(), Condition(wounds=3)).worsened == ()


def test_the_unconscious_cannot_exert():
    with pytest.raises(Refusal):
        exert(Sheet(), Condition(nonlethal="unconscious"))


@pytest.mark.parametrize("hours, healed", [(7, 0), (8, 1), (16, 2), (23, 2), (24, 3), (31, 3), (32, 4), (48, 6)])
def test_natural_healing_of_wounds_is_1_per_8_hours_3_per_day(hours, healed):
    assert rest(Sheet(), Condition(wounds=10), RestInputs(hours=hours)).wounds_healed == healed


@pytest.mark.parametrize("minutes, healed", [(19, 0), (20, 1), (40, 2), (60, 3), (80, 4), (100, 5), (120, 6)])
def test_natural_healing_of_nonlethal_wounds_is_1_per_20_minutes_3_per_hour(minutes, healed):
    assert rest(Sheet(), Condition(nonlethal_wounds=10), RestInputs(minutes=minutes)).nonlethal_healed == healed


def test_an_hours_rest_heals_nonlethal_wounds_too():
    out = rest(Sheet(), Condition(wounds=1, nonlethal_wounds=5), RestInputs(hours=1))
    assert (out.minutes, out.wounds_healed, out.nonlethal_healed) == (60, 0, 3)


def test_an_interrupted_rest_heals_nothing():
    out = rest(Sheet(), Condition(wounds=3, nonlethal_wounds=3), RestInputs(hours=24, interrupted=True))
    assert (out.wounds_healed, out.nonlethal_healed) == (0, 0)


def test_the_dead_and_objects_do_not_heal():
    """The dead are refused unless forced, and then heal nothing; objects heal nothing."""
    with pytest.raises(Refusal, match="dead"):
        check_rest(Sheet(), Condition(wounds=3, lethal="dead"), force=False)
    assert rest(Sheet(), Condition(wounds=3, lethal="dead"), RestInputs(hours=24, force=True)).wounds_healed == 0
    assert rest(Sheet(kind="object"), Condition(wounds=3), RestInputs(hours=24)).wounds_healed == 0


def test_healing_steps_the_lethal_ladder_up_one_step_per_wound():
    stable = Condition(wounds=2, lethal="stable")
    assert rested(stable, hours=8) == Condition(wounds=1, lethal="disabled")
    assert rested(stable, hours=16) == Condition(wounds=0)


def test_the_dying_who_are_not_stable_save_each_round_and_do_not_rest_unless_forced():
    """Seed, Dying: a Fortitude save each round until stable; a forced rest heals as one of a stable character."""
    dying = Condition(wounds=2, lethal="dying", dying_saves=2)
    with pytest.raises(Refusal, match="saves each round until stable"):
        check_rest(Sheet(), dying, force=False)
    assert rest(Sheet(), dying, RestInputs(hours=8, force=True)).wounds_healed == 1


def test_healing_a_nonlethal_wound_wakes_the_unconscious_staggered():
    out = rested(Condition(nonlethal_wounds=3, nonlethal="unconscious"), minutes=20)
    assert (out.nonlethal_wounds, out.states, out.conscious) == (2, ["staggered"], True)


def test_healing_never_goes_below_zero():
    assert rested(Condition(wounds=1, nonlethal_wounds=1), hours=72) == Condition()


# Properties ---------------------------------------------------------------------------------------

STEPS = st.sampled_from(
    ["wound", "disabling", "dropping", "nonlethal", "staggering", "knockout", "exert", "save", "failsave"]
)


def step(condition, move, rulings=Rulings(drop_margin=15)):
    if move in ("wound", "disabling", "dropping"):
        return wound(condition, {"wound": WOUND, "disabling": DISABLING, "dropping": DROPPING}[move])
    if move in ("nonlethal", "staggering", "knockout"):
        return after_nonlethal_wound(
            condition, {"nonlethal": WOUND, "staggering": DISABLING, "knockout": DROPPING}[move]
        )
    if move == "exert":
        return after_exertion(condition)
    if condition.lethal == "dying":
        return saved(condition, 20 if move == "save" else 2, rulings=rulings)
    return condition


@given(st.lists(STEPS, max_size=12), st.integers(0, 200), st.integers(0, 6000))
def test_healing_never_goes_below_zero_or_gains_wounds(moves, hours, minutes):
    condition = Condition()
    for move in moves:
        condition = step(condition, move)
    after = rested(condition, hours=hours, minutes=minutes)
    assert 0 <= after.wounds <= condition.wounds
    assert 0 <= after.nonlethal_wounds <= condition.nonlethal_wounds


@given(st.lists(STEPS, max_size=12))
def test_every_state_but_death_is_left_by_a_long_enough_rest(moves):
    condition = Condition()
    for move in moves:
        condition = step(condition, move)
    assert len([s for s in condition.states if s in ("disabled", "dying", "stable", "dead")]) <= 1
    if condition.lethal != "dead":
        assert rested(condition, hours=24 * 30) == Condition()


PATHS = {
    "disabled": ["disabling"],
    "dying": ["disabling", "wound"],
    "stable": ["disabling", "wound", "save"],
    "dead": ["disabling", "wound", "wound"],
    "staggered": ["staggering"],
    "unconscious": ["staggering", "nonlethal"],
}


@pytest.mark.parametrize("state", list(PATHS))
def test_every_ladder_state_is_reachable_and_all_but_death_leavable(state):
    condition = Condition()
    for move in PATHS[state]:
        condition = step(condition, move)
    assert condition.states == [state]
    expected = [state] if state == "dead" else []  # death is the one state no rest leaves
    assert rested(condition, hours=24).states == expected
