"""Potestas sheet parsing, rulings, the contract view, falling and the DC property."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from chronicle.domain import systems
from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput
from chronicle.domain.potestas import (
    Condition,
    InjuryInputs,
    Rulings,
    Sheet,
    falling,
    fortitude_dc,
    injure,
    minimum_fall,
    parse_sheet,
    summary,
    view,
)


def test_the_system_is_found_by_name():
    assert systems.get("potestas").NAME == "potestas"


def test_parse_sheet_reads_integer_stats_and_dr():
    sheet = parse_sheet(
        {"fort": "5", "dr": "5/silver", "bab": "+3", "str": "14", "dex": "12", "defence": "6", "size": "-1"}
    )
    assert sheet.model_dump(mode="json", exclude={"hardness", "thickness", "holder_fort", "weapons"}) == {
        "kind": "character",
        "fort": 5,
        "dr": "5/silver",
        "bab": 3,
        "str": 14,
        "dex": 12,
        "defence": 6,
        "size": -1,
    }


def test_dr_with_a_dash_is_the_plain_number():
    assert parse_sheet({"dr": "3/-"}).dr == "3"


@pytest.mark.parametrize(
    "stats", [{"hp": "10"}, {"fort": "five"}, {"fort": "1.5"}, {"dr": "5/wood"}, {"dr": "x"}, {"hardness": "5"}]
)
def test_unknown_keys_and_non_integers_are_bad_input(stats):
    with pytest.raises(BadInput):
        parse_sheet(stats)


def test_object_sheets_take_hardness_thickness_and_holder():
    door = parse_sheet({"hardness": "5", "thickness": "2", "holder_fort": "4"}, kind="object")
    assert (door.kind, door.hardness, door.thickness, door.holder_fort, door.injury_save_bonus()) == (
        "object",
        5,
        2,
        4,
        10,
    )
    with pytest.raises(BadInput):
        parse_sheet({"thickness": "0"}, kind="object")
    with pytest.raises(BadInput):
        parse_sheet({"str": "12"}, kind="object")


def test_a_stored_sheet_reloads_from_its_json():
    sheet = parse_sheet({"str": "14", "dr": "2/magic"})
    assert Sheet.model_validate(sheet.model_dump(mode="json")) == sheet


def test_rulings_defaults_follow_rulings_md():
    assert Rulings().model_dump(mode="json") == {
        "fair_dice": "optional",
        "enhancement_to_hit": True,
        "natural_20_hits": True,
        "natural_1_misses": True,
        "confirm_criticals": True,
        "iterative_cap": "bab",
        "hurried_iterative_crits": "first_pair",
        "str_penalty_applies": True,
        "critical_damage": "multiply_roll",
        "disable_margin": 10,
        "drop_margin": None,
        "coup_de_grace_save": "one_degree_worse",
        "save_naturals": "standard",
        "dying_dc": "10_plus_rounds",
        "dying_save_naturals": "standard",
        "unconscious_nonlethal": "no_effect",
        "dying_failure": "continue",
        "dying_death_margin": 10,
        "wound_while_stable": "dying",
    }


def test_rulings_accept_command_line_strings():
    rulings = Rulings.model_validate({"disable_margin": "8", "natural_20_hits": "false", "drop_margin": "off"})
    assert (rulings.disable_margin, rulings.natural_20_hits, rulings.drop_margin) == (8, False, None)
    with pytest.raises(ValidationError):
        Rulings.model_validate({"critical_damage": "explode"})


def test_view_has_the_contract_condition():
    condition = Condition(wounds=2, nonlethal_wounds=1, lethal="disabled", nonlethal="staggered")
    assert view(Sheet(), condition)["condition"] == {
        "wounds": 2,
        "nonlethal_wounds": 1,
        "states": ["disabled", "staggered"],
        "dying_saves": 0,
        "rounds_unconscious": 0,
        "conscious": True,
    }
    assert view(Sheet(dr="5/silver"), Condition())["sheet"]["dr"] == "5/silver"


def test_summary_is_one_line():
    assert summary(Sheet(), Condition()) == "unhurt"
    assert (
        summary(Sheet(), Condition(wounds=2, nonlethal_wounds=1, lethal="disabled"))
        == "2 wounds, 1 nonlethal; disabled"
    )
    assert summary(Sheet(kind="object"), Condition(wounds=1, lethal="destroyed")) == "1 wound; destroyed"


@pytest.mark.parametrize(
    "feet, velocity, hits, damage",
    [
        (0, 0.0, 0, 0),
        (1, 8.37, 1, 4),
        (10, 26.46, 5, 20),
        (100, 83.67, 16, 64),
        (630, 210.0, 42, 168),
        (5000, 210.0, 42, 168),
    ],
)
def test_falling_velocity_hits_and_damage(feet, velocity, hits, damage):
    assert falling(feet).model_dump() == {"feet": feet, "velocity": velocity, "hits": hits, "damage": damage}


def test_falling_table_gives_the_minimum_fall_for_each_hit_count():
    assert [minimum_fall(h) for h in (1, 2, 3, 10, 42)] == [1, 2, 4, 36, 630]
    for hits in range(1, 43):
        assert falling(minimum_fall(hits)).hits == hits
        assert falling(minimum_fall(hits) - 1).hits == hits - 1


def test_a_negative_fall_is_bad_input():
    with pytest.raises(BadInput):
        falling(-1)


@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_higher_damage_never_gives_a_lower_dc(a, b):
    low, high = sorted((a, b))
    assert fortitude_dc(low) <= fortitude_dc(high)


@given(st.integers(0, 500), st.integers(0, 500), st.sampled_from(["0", "5", "5/silver", "10/magic"]))
def test_more_damage_never_leaves_less_after_dr_or_a_lower_dc(a, b, dr):
    low, high = sorted((a, b))
    hurt = [injure(Sheet(dr=dr), Condition(), InjuryInputs(damage=d), Rulings(), Dice(5)) for d in (low, high)]
    assert hurt[0].after_dr <= hurt[1].after_dr
    assert (hurt[0].dc or 0) <= (hurt[1].dc or 0)
