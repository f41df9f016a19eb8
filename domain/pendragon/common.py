"""Helpers every PenDragon Pass event shares."""

from typing import Any


def event_id(event: Any) -> str:
    """The application's event id format, used in the contract's `increases[].event`."""
    return f"{event.originator_id}:{event.originator_version}"
