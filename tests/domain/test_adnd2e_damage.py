"""Real and temporary damage, sap knockouts and rest (docs/rulings.md, AD&D 2E)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronicle.domain.adnd2e import (
    Condition,
    InjureInputs,
    RestInputs,
    Rulings,
    injure,
    knockout_chance,
    parse_sheet,
    rest,
    split_damage,
)
from chronicle.domain.adnd2e.damage import check_rest
from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput, Refusal

FIGHTER = parse_sheet({"hp": "20", "level": "3"})
RULINGS = Rulings()


def hurt(damage, mode="lethal", condition=Condition(), sheet=FIGHTER, rulings=RULINGS, table=None, **inputs):
    dice = Dice(7, table=table)
    return injure(sheet, condition, InjureInputs(damage=damage, mode=mode, **inputs), rulings, dice), dice


def test_lethal_damage_is_all_real():
    assert split_damage("lethal", 9) == (9, 0)


def test_armed_nonlethal_halves_damage_and_half_of_that_is_temporary():
    # total = 9 // 2 = 4; real = 2, temporary = 2; 11 -> total 5, real 2, temporary 3
    assert split_damage("armed-nonlethal", 9) == (2, 2)
    assert split_damage("armed-nonlethal", 11) == (2, 3)


def test_subdual_is_an_armed_nonlethal_attack():
    assert split_damage("subdual", 11) == split_damage("armed-nonlethal", 11)


def test_sap_damage_is_a_quarter_real():
    assert split_damage("sap", 11) == (2, 9)


@given(st.sampled_from(["armed-nonlethal", "subdual"]), st.integers(0, 500))
def test_nonlethal_split_sums_to_half_the_damage(mode, damage):
    real, temporary = split_damage(mode, damage)
    assert real + temporary == damage // 2 and 0 <= real <= temporary


@given(st.integers(0, 500))
def test_sap_split_sums_to_the_damage(damage):
    real, temporary = split_damage("sap", damage)
    assert (real + temporary, real) == (damage, damage // 4)


def test_negative_damage_is_bad_input():
    with pytest.raises(BadInput):
        hurt(-1)


def test_injure_without_hp_on_the_sheet_is_bad_input():
    with pytest.raises(BadInput):
        hurt(3, sheet=parse_sheet({"level": "2"}))


def test_real_plus_temporary_at_max_knocks_out():
    outcome, _ = hurt(8, condition=Condition(real_damage=4, temporary_damage=8))
    assert (outcome.unconscious, outcome.dead) == (True, False)


def test_temporary_unconscious_off_keeps_the_character_up():
    outcome, _ = hurt(
        8, condition=Condition(real_damage=4, temporary_damage=8), rulings=Rulings(temporary_unconscious=False)
    )
    assert (outcome.unconscious, outcome.dead) == (False, False)


def test_real_damage_alone_to_zero_kills():
    outcome, _ = hurt(20)
    assert (outcome.real, outcome.dead, outcome.unconscious) == (20, True, False)


def test_death_at_minus_ten_leaves_a_character_at_zero_unconscious():
    outcome, _ = hurt(25, rulings=Rulings(death_at=-10))
    assert (outcome.dead, outcome.unconscious) == (False, True)


def test_knockout_chance_is_5_percent_a_point_up_to_40():
    assert [knockout_chance(d, helpless=False) for d in (1, 7, 8, 20)] == [5, 35, 40, 40]


def test_knockout_chance_against_sleeping_or_held_is_10_percent_a_point_up_to_80():
    assert [knockout_chance(d, helpless=True) for d in (1, 7, 8, 20)] == [10, 70, 80, 80]


def test_sap_knockout_roll_at_or_under_the_chance_knocks_out_for_sap_knockout_rounds():
    outcome, dice = hurt(6, "sap", table={"knockout": [30], "knockout_rounds": [4, 5]})
    assert outcome.model_dump() == {
        "damage": 6,
        "real": 1,
        "temporary": 5,
        "knocked_out": True,
        "knockout_chance": 30,
        "knockout_roll": 30,
        "knockout_rounds": 9,
        "woken": False,
        "unconscious": False,
        "dead": False,
    }
    assert [r.purpose for r in dice.record().rolls] == ["knockout", "knockout_rounds"]


def test_sap_knockout_rounds_follow_the_ruling():
    outcome, _ = hurt(
        6, "sap", rulings=Rulings(sap_knockout_rounds="1d4"), table={"knockout": [1], "knockout_rounds": [3]}
    )
    assert outcome.knockout_rounds == 3


def test_sap_knockout_roll_over_the_chance_misses():
    outcome, _ = hurt(6, "sap", table={"knockout": [31]})
    assert (outcome.knocked_out, outcome.knockout_rounds) == (False, None)


def test_sap_ignores_magic_bonuses():
    outcome, _ = hurt(9, "sap", magic_bonus=2, table={"knockout": [99]})
    assert (outcome.damage, outcome.real, outcome.temporary, outcome.knockout_chance) == (7, 1, 6, 35)


def test_sap_on_sleeping_victim_roll_81_or_more_wakes_it():
    outcome, _ = hurt(9, "sap", condition=Condition(asleep=True), table={"knockout": [81]})
    assert (outcome.knockout_chance, outcome.knocked_out, outcome.woken) == (80, False, True)


def test_sap_on_magically_held_victim_uses_the_helpless_chance():
    outcome, _ = hurt(
        3, "sap", condition=Condition(magically_held=True), table={"knockout": [30], "knockout_rounds": [1, 1]}
    )
    assert (outcome.knockout_chance, outcome.knocked_out) == (30, True)


def test_sap_only_small_or_medium_victims():
    with pytest.raises(Refusal):
        hurt(5, "sap", sheet=parse_sheet({"hp": "30", "size": "large"}))


def test_knockout_roll_out_of_range_is_bad_input():
    with pytest.raises(BadInput):
        hurt(5, "sap", table={"knockout": [101]})


def resting(condition, rulings=RULINGS, **inputs):
    return rest(FIGHTER, condition, RestInputs(**inputs), rulings, Dice(1))


def test_temporary_recovery_heals_one_hp_per_turn_of_rest():
    outcome = resting(Condition(real_damage=2, temporary_damage=10), minutes=45)
    assert (outcome.temporary_healed, outcome.real_healed) == (4, 0)


def test_temporary_recovery_ruling_scales_healing():
    outcome = resting(Condition(temporary_damage=10), rulings=Rulings(temporary_recovery=3), minutes=20)
    assert outcome.temporary_healed == 6


def test_real_recovery_heals_per_full_day_of_rest():
    outcome = resting(Condition(real_damage=5, temporary_damage=2), hours=49)
    assert (outcome.temporary_healed, outcome.real_healed) == (2, 2)


def test_interrupted_rest_heals_nothing():
    outcome = resting(Condition(temporary_damage=10), hours=2, interrupted=True)
    assert (outcome.temporary_healed, outcome.real_healed, outcome.minutes) == (0, 0, 120)


def test_rest_that_heals_nothing_still_has_an_outcome():
    outcome = resting(Condition(), minutes=5)
    assert outcome.model_dump() == {
        "minutes": 5,
        "temporary_healed": 0,
        "real_healed": 0,
        "knocked_out_rounds": 0,
        "unconscious": False,
        "dead": False,
    }


def test_rest_wakes_from_temporary_unconsciousness():
    outcome = resting(Condition(real_damage=5, temporary_damage=15, unconscious=True), minutes=10)
    assert (outcome.temporary_healed, outcome.unconscious) == (1, False)


def test_rest_lets_a_knockout_wear_off_a_round_a_minute():
    assert resting(Condition(knocked_out_rounds=9), minutes=4).knocked_out_rounds == 5


def test_the_dead_do_not_heal():
    """Refused unless forced, as in every system; forced, they heal nothing."""
    with pytest.raises(Refusal, match="is dead: a rest heals nothing"):
        check_rest(Condition(real_damage=20, dead=True), force=False)
    outcome = resting(Condition(real_damage=20, dead=True), hours=48, force=True)
    assert (outcome.real_healed, outcome.dead) == (0, True)


def test_negative_rest_is_bad_input():
    with pytest.raises(BadInput):
        resting(Condition(), minutes=-10)


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 5000), st.integers(0, 5))
def test_rest_never_heals_past_max_hp(real, temporary, minutes, recovery):
    condition = Condition(real_damage=real, temporary_damage=temporary)
    outcome = resting(condition, rulings=Rulings(temporary_recovery=recovery, real_recovery=recovery), minutes=minutes)
    assert 0 <= outcome.temporary_healed <= temporary and 0 <= outcome.real_healed <= real
