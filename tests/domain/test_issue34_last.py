"""Issue 34, what the earlier round left: free text made of digits is text, the 64-bit limit belongs to what
is read as a number; a sheet that lacks a value is named, with the nearest value it has."""

import pickle

import pytest

from chronicle.domain.errors import BadInput, NotFound, NotOnSheet
from chronicle.domain.pendragon import parse_sheet as pendragon_sheet
from chronicle.domain.potestas import parse_sheet as potestas_sheet
from chronicle.domain.text import check_arguments

# 2**64 = 18,446,744,073,709,551,616 and 2**63 = 9,223,372,036,854,775,808: one past the largest 64-bit number
TWO_TO_64 = "18446744073709551616"
TWO_TO_63 = "9223372036854775808"


@pytest.mark.parametrize("text", [TWO_TO_64, "#" + TWO_TO_64, "-" + TWO_TO_63, "hp=" + "9" * 30, "9" * 5000])
def test_digits_typed_as_arguments_are_text_until_something_reads_them_as_a_number(text):
    check_arguments(["note", text])  # no refusal: `note 18446744073709551616` is a note


def test_arguments_are_still_refused_for_what_no_text_can_hold():
    with pytest.raises(BadInput, match="NUL"):
        check_arguments(["note", "a\x00b"])
    with pytest.raises(BadInput, match="not valid UTF-8"):
        check_arguments(["note", "a\udcff"])


@pytest.mark.parametrize("dr", [TWO_TO_63 + "/silver", TWO_TO_64 + "/adamantine", "-" + TWO_TO_64 + "/magic"])
def test_a_damage_reduction_with_a_kind_is_held_to_64_bits_as_the_plain_number(dr):
    with pytest.raises(BadInput, match="damage reduction is beyond the 64-bit limit"):
        potestas_sheet({"dr": dr})
    with pytest.raises(BadInput, match="damage reduction is beyond the 64-bit limit"):
        potestas_sheet({"dr": dr.partition("/")[0]})


def test_a_damage_reduction_one_below_the_limit_keeps_its_kind():
    reduction = potestas_sheet({"dr": "9223372036854775806/silver"}).reduction
    assert (reduction.amount, reduction.bypass) == (2**63 - 2, "silver")


# a sheet that lacks a value: the rules say "this sheet", the ledger whose (NotOnSheet.of)

BRUNO = {"siz": "15", "con": "13", "sword": "15", "loyalty_clan": "16", "first_aid": "11"}


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("swrd", "Bruno's sheet has no skill 'swrd': did you mean 'sword'?"),  # a letter dropped
        ("frist_aid", "Bruno's sheet has no skill 'frist_aid': did you mean 'first_aid'?"),  # two swapped
        ("valorus", "Bruno's sheet has no trait 'valorus': did you mean 'valorous'?"),  # the kind of what was meant
        ("loyalty_clna", "Bruno's sheet has no passion 'loyalty_clna': did you mean 'loyalty_clan'?"),
        ("sizz", "Bruno's sheet has no statistic 'sizz': did you mean 'siz'?"),
        ("chirurgery", "Bruno's sheet has no skill 'chirurgery'"),  # known to the system, not on this sheet
        ("hate_trolls", "Bruno's sheet has no passion 'hate_trolls'"),
    ],
)
def test_a_value_the_sheet_lacks_names_whose_sheet_what_kind_and_the_nearest_it_has(asked, said):
    sheet = pendragon_sheet(BRUNO)
    with pytest.raises(NotOnSheet) as lacking:
        sheet.value(asked)
    assert isinstance(lacking.value, NotFound)  # bad input (exit 2), as every unknown name
    assert str(lacking.value.of("Bruno")) == said


def test_a_name_ending_in_s_is_possessed_as_the_log_writes_it():
    with pytest.raises(NotOnSheet) as lacking:
        pendragon_sheet(BRUNO).value("swrod")
    assert str(lacking.value.of("Harrekus")) == "Harrekus' sheet has no skill 'swrod': did you mean 'sword'?"


def test_a_lacking_value_survives_a_trip_to_a_worker_process_and_back():
    with pytest.raises(NotOnSheet) as lacking:
        pendragon_sheet(BRUNO).value("swrd")
    again = pickle.loads(pickle.dumps(lacking.value))
    assert str(again) == str(lacking.value)
    assert str(again.of("Bruno")) == "Bruno's sheet has no skill 'swrd': did you mean 'sword'?"
