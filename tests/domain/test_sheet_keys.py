"""What a sheet key and value may be (issue 34, Sheets): the 64-bit limit with a kind of damage reduction."""

import pytest

from chronicle.domain.errors import BadInput
from chronicle.domain.model import INT64_MAX
from chronicle.domain.potestas import Sheet
from chronicle.domain.potestas import parse_sheet as potestas_sheet


@pytest.mark.parametrize("dr", ["99999999999999999999", "99999999999999999999/silver", "9" * 5000 + "/-"])
def test_a_damage_reduction_beyond_64_bits_is_bad_input_with_a_kind_as_without(dr):
    with pytest.raises(BadInput, match="damage reduction is beyond the 64-bit limit"):
        potestas_sheet({"dr": dr})


def test_a_damage_reduction_at_the_64_bit_limit_is_kept():
    assert potestas_sheet({"dr": f"{INT64_MAX}/silver"}).reduction.amount == INT64_MAX


def test_a_sheet_stored_before_the_limit_covered_the_kind_still_reads():
    stored = Sheet.model_validate({"dr": "99999999999999999999/silver"})
    assert (stored.reduction.amount, stored.reduction.bypass) == (10**20 - 1, "silver")
