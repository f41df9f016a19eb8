"""Derived ids: an event's id is the standard uuid5 of its aggregate and version, however it is computed."""

from uuid import UUID, uuid5

from chronicle.domain.ids import event_id
from hypothesis import given
from hypothesis import strategies as st


@given(st.uuids(), st.integers(min_value=1, max_value=10**9))
def test_an_event_id_is_the_uuid5_of_its_aggregate_and_version(aggregate: UUID, version: int):
    assert event_id(aggregate, version) == str(uuid5(aggregate, f"v{version}"))
