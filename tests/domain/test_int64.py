"""Integers beyond 64 bits are bad input naming the limit, wherever they are typed."""

from datetime import UTC, datetime
from uuid import uuid4

import pytest
from pydantic import ValidationError

from chronicle.domain.dice import DiceRecord, Roll
from chronicle.domain.errors import BadInput
from chronicle.domain.model import INT64_MAX, INT64_MIN, Int64, Model, beyond_int64
from chronicle.domain.rolls import DiceRolled

HUGE = 2**64


class Hours(Model):
    hours: Int64
    faces: tuple[Int64, ...] = ()
    bonus: Int64 | None = None


def test_an_int64_field_takes_every_64_bit_number_and_text_of_one():
    assert Hours(hours=INT64_MAX, faces=(INT64_MIN, 0), bonus=None).hours == INT64_MAX
    assert Hours(hours="12").hours == 12


@pytest.mark.parametrize("value", [HUGE, -HUGE, INT64_MAX + 1, "9" * 30, "9" * 5000])
def test_a_bigger_number_fails_validation_in_one_line_naming_the_limit(value):
    with pytest.raises(ValidationError) as failed:
        Hours(hours=value)
    message = failed.value.errors()[0]["msg"]
    assert (
        message == "must be a whole number within the 64-bit limit"
        " (-9,223,372,036,854,775,808 to 9,223,372,036,854,775,807)"
    )


def test_lists_and_optional_fields_are_checked_too():
    for fields in ({"hours": 1, "faces": (1, HUGE)}, {"hours": 1, "bonus": HUGE}):
        with pytest.raises(ValidationError, match="64-bit limit"):
            Hours(**fields)


def test_the_dice_models_keep_64_bit_numbers_only():
    with pytest.raises(ValidationError, match="64-bit limit"):
        DiceRecord(seed=HUGE)
    with pytest.raises(ValidationError, match="64-bit limit"):
        Roll(purpose="roll", sides=6, faces=(HUGE,))


def test_beyond_int64_names_where_the_number_is():
    problem = beyond_int64({"inputs": {"damage": HUGE}, "faces": [1, 2]})
    assert str(problem).startswith("inputs.damage is beyond the 64-bit limit")
    assert beyond_int64({"inputs": {"damage": 12, "ok": True}, "faces": [1, INT64_MIN]}) is None


def test_an_event_with_a_huge_number_is_never_sealed_whatever_its_model_says():
    """The safety net: an event field not (yet) typed Int64 is still refused, naming the field."""
    from chronicle.domain.events import Event

    class Noted(Event):
        count: int

        def apply(self, aggregate):
            pass

    event = Noted(originator_id=uuid4(), originator_version=2, timestamp=datetime.now(UTC), by="gm", count=HUGE)
    with pytest.raises(BadInput, match="^count is beyond the 64-bit limit"):
        event.sealed()


def test_a_free_roll_records_64_bit_totals_only():
    with pytest.raises(ValidationError, match="64-bit limit"):
        DiceRolled(
            originator_id=uuid4(),
            originator_version=2,
            timestamp=datetime.now(UTC),
            by="gm",
            notation="1",
            total=HUGE,
            faces=(),
            kept=(),
            dice=DiceRecord(),
        )
