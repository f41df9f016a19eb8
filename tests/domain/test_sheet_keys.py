"""What a sheet key and value may be (Sheets): the 64-bit limit with a kind of damage reduction, and
a PenDragon Pass key that is a slip for a known name (docs/scripting.md, JSON documents)."""

import pytest

from chronicle.domain.adnd2e import parse_sheet as adnd2e_sheet
from chronicle.domain.errors import BadInput, NotFound
from chronicle.domain.model import INT64_MAX
from chronicle.domain.pendragon import parse_sheet as pendragon_sheet
from chronicle.domain.pendragon import sheet_changes
from chronicle.domain.potestas import Sheet
from chronicle.domain.potestas import parse_sheet as potestas_sheet
from chronicle.domain.spelling import letters_apart


@pytest.mark.parametrize("dr", ["99999999999999999999", "99999999999999999999/silver", "9" * 5000 + "/-"])
def test_a_damage_reduction_beyond_64_bits_is_bad_input_with_a_kind_as_without(dr):
    with pytest.raises(BadInput, match="damage reduction is beyond the 64-bit limit"):
        potestas_sheet({"dr": dr})


def test_a_damage_reduction_at_the_64_bit_limit_is_kept():
    assert potestas_sheet({"dr": f"{INT64_MAX}/silver"}).reduction.amount == INT64_MAX


def test_a_sheet_stored_before_the_limit_covered_the_kind_still_reads():
    stored = Sheet.model_validate({"dr": "99999999999999999999/silver"})
    assert (stored.reduction.amount, stored.reduction.bypass) == (10**20 - 1, "silver")


# PenDragon Pass: a key one or two letters from a name the system knows or the sheet has is a slip


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("valorus", "valorous"),  # a letter dropped
        ("valourous", "valorous"),  # a letter added
        ("loyalty_clna", "loyalty_clan"),  # two swapped: a passion by its prefix, near a known one
        ("bwo", "bow"),  # two swapped in a three-letter skill
        ("stewardshp", "stewardship"),
        ("honour", "honor"),
        ("size", "siz"),
    ],
)
def test_a_key_one_or_two_letters_from_a_known_name_is_bad_input_saying_which(key, meant):
    with pytest.raises(BadInput, match=f"did you mean '{meant}'"):
        pendragon_sheet({key: "12"})


def test_a_genuinely_new_skill_or_passion_is_written_with_its_kind():
    sheet = pendragon_sheet({"skill:bwo": "5", "passion:loyalty_clna": "14"})
    assert (sheet.skills, sheet.passions) == ({"bwo": 5}, {"loyalty_clna": 14})
    assert sheet.value("bwo") == 5


def test_names_far_from_every_known_one_are_new_skills_and_passions_as_before():
    sheet = pendragon_sheet(
        {"hate_trolls": "12", "religion_orlanth": "9", "axe": "11", "weaving": "4", "beekeeping": "7"}
    )
    assert sheet.passions == {"hate_trolls": 12}
    assert sheet.skills == {"religion_orlanth": 9, "axe": 11, "weaving": 4, "beekeeping": 7}


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("skill:valorous", "valorous is a trait by its name"),
        ("skill:loyalty_x", "loyalty_x is a passion by its name"),
        ("passion:sword", "sword is a skill by its name"),
        ("skill:shaman", "shaman is a flag"),
        ("spell:bladesharp", "skill:NAME or passion:NAME"),
        ("skill:Bow", "lower-case"),
    ],
)
def test_a_new_name_must_be_of_the_kind_it_says(key, says):
    with pytest.raises(BadInput, match=says):
        pendragon_sheet({key: "3"})


def test_character_set_holds_keys_to_what_the_sheet_already_has():
    sheet = pendragon_sheet({"flyswatting": "12", "valorous": "15"})
    with pytest.raises(BadInput, match="did you mean 'flyswatting'"):
        sheet_changes(sheet, {"flyswating": "13"})
    assert sheet_changes(sheet, {"skill:flyswating": "3"}) == {"skills": {"flyswating": 3}}
    # a trait sets its opposite to 20 minus it, even back to 10 (cowardly was 5)
    assert sheet_changes(sheet, {"valorous": "10", "pow": "13"}) == {
        "traits": {"valorous": 10, "cowardly": 10},
        "pow": 13,
    }


def test_a_value_the_sheet_lacks_is_not_found_naming_the_nearest_it_has():
    sheet = pendragon_sheet({"sword": "12"})
    with pytest.raises(NotFound, match="'swrod' is not .* on this sheet: did you mean 'sword'"):
        sheet.value("swrod")
    with pytest.raises(NotFound, match="on this sheet$"):
        sheet.value("stewardship")


@pytest.mark.parametrize(
    ("first", "second", "apart"),
    [("valorus", "valorous", 1), ("bwo", "bow", 1), ("kitten", "sitting", 3), ("ca", "abc", 3), ("sword", "sword", 0)],
)
def test_letters_apart_counts_an_added_dropped_changed_or_swapped_letter_as_one(first, second, apart):
    assert letters_apart(first, second) == apart


def test_potestas_and_adnd2e_name_the_key_a_slip_was_meant_for():
    with pytest.raises(BadInput, match="unknown character stat 'frot': did you mean 'fort'"):
        potestas_sheet({"frot": "2"})
    with pytest.raises(BadInput, match="unknown adnd2e stat 'levl': did you mean 'level'"):
        adnd2e_sheet({"levl": "3"})
