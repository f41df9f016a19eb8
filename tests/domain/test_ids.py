"""Derived ids: an event's id is the standard uuid5 of its aggregate and version, however it is computed."""

from uuid import UUID, uuid5

from hypothesis import given
from hypothesis import strategies as st

from chronicle.domain.ids import event_id, event_key, key_of


@given(st.uuids(), st.integers(min_value=1, max_value=10**9))
def test_an_event_id_is_the_uuid5_of_its_aggregate_and_version(aggregate: UUID, version: int):
    assert event_id(aggregate, version) == str(uuid5(aggregate, f"v{version}"))


@given(st.uuids(), st.integers(min_value=1, max_value=10**9))
def test_an_event_key_is_the_head_of_its_id_and_fits_a_signed_64_bit_column(aggregate: UUID, version: int):
    key = event_key(aggregate, version)
    assert key == key_of(event_id(aggregate, version))
    assert 0 <= key < 2**63
