"""The PenDragon Pass sheet: statistics, trait pairs, passions, skills, virtues (docs/scripting.md)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronicle.domain.errors import BadInput, NotFound
from chronicle.domain.pendragon import Condition, Sheet, parse_sheet, summary, view
from chronicle.domain.pendragon.sheet import OPPOSITE, category

VIRTUES = ["chaste", "energetic", "generous", "modest", "temperate"]


def test_statistics_and_honor_are_read_from_their_keys():
    sheet = parse_sheet({"siz": "15", "con": "13", "pow": "12", "dex": "11", "str": "14", "app": "9", "honor": "15"})
    assert [sheet.value(s) for s in ("siz", "con", "pow", "dex", "str", "app", "honor")] == [15, 13, 12, 11, 14, 9, 15]
    assert sheet.max_hp == 28


def test_every_trait_starts_at_ten_and_there_are_thirteen_pairs():
    sheet = parse_sheet({})
    assert len(sheet.traits) == 26 and set(sheet.traits.values()) == {10}


def test_setting_a_trait_sets_its_opposite_to_twenty_minus_it():
    sheet = parse_sheet({"valorous": "17", "lazy": "4"})
    assert (sheet.value("valorous"), sheet.value("cowardly")) == (17, 3)
    assert (sheet.value("energetic"), sheet.value("lazy")) == (16, 4)


def test_both_sides_of_a_pair_must_add_up_to_twenty():
    with pytest.raises(BadInput, match="add up to 20"):
        parse_sheet({"valorous": "17", "cowardly": "5"})


def test_passions_and_skills_are_told_apart_by_name():
    sheet = parse_sheet(
        {"loyalty_clan": "16", "love_family": "14", "hate_trolls": "12", "hospitality": "13", "stewardship": "12"}
    )
    assert sheet.passions == {"loyalty_clan": 16, "love_family": 14, "hate_trolls": 12, "hospitality": 13}
    assert sheet.skills == {"stewardship": 12}
    assert [category(n) for n in ("str", "just", "honor", "love_x", "sword")] == [
        "statistic",
        "trait",
        "passion",
        "passion",
        "skill",
    ]


def test_shaman_and_initiate_are_flags():
    assert parse_sheet({"shaman": "1", "initiate": "0"}).shaman is True


@pytest.mark.parametrize(
    "stats", [{"siz": "big"}, {"sword": "1.5"}, {"Sword": "3"}, {"two words": "3"}, {"9lives": "1"}]
)
def test_bad_values_and_names_are_bad_input(stats):
    with pytest.raises(BadInput):
        parse_sheet(stats)


def test_virtues_are_five_different_traits():
    assert parse_sheet({}, virtues=VIRTUES).virtues == tuple(VIRTUES)
    for wrong in (VIRTUES[:4], VIRTUES[:4] + ["chaste"], VIRTUES[:4] + ["sword"]):
        with pytest.raises(BadInput, match="virtues"):
            parse_sheet({}, virtues=wrong)


def test_an_unknown_name_is_not_found():
    with pytest.raises(NotFound):
        parse_sheet({}).value("sword")


def test_raising_a_trait_lowers_its_opposite_but_never_below_zero():
    sheet = parse_sheet({"valorous": "20"})
    assert (sheet.raised("valorous").value("valorous"), sheet.raised("valorous").value("cowardly")) == (21, 0)
    assert parse_sheet({"sword": "20"}).raised("sword").value("sword") == 21


def test_the_sheet_survives_its_json_form():
    sheet = parse_sheet({"str": "14", "valorous": "17", "loyalty_clan": "16", "sword": "15"}, virtues=VIRTUES)
    assert Sheet.model_validate(sheet.model_dump(mode="json")) == sheet


@given(st.sampled_from(sorted(OPPOSITE)), st.integers(0, 20))
def test_any_trait_setting_keeps_its_pair_at_twenty(trait, value):
    sheet = parse_sheet({trait: str(value)})
    assert sheet.value(trait) + sheet.value(OPPOSITE[trait]) == 20


def test_a_fresh_character_has_full_hit_points_and_no_status():
    sheet = parse_sheet({"siz": "15", "con": "13"})
    shown = view(sheet, Condition())
    assert shown["condition"] == {"hp": 28, "max_hp": 28, "wounds": [], "states": []}
    assert shown["status"] == {"total": 0, "increases_earned": 0, "increases_spent": 0, "increases_pending": 0}
    assert shown["increases"] == [] and shown["oaths"] == [] and shown["geasa"] == []
    assert summary(sheet, Condition()) == "hp 28/28, Status 0"
