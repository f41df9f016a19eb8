"""Helpers every PenDragon Pass event shares."""

from typing import Any

from .. import ids


def event_id(event: Any) -> str:
    """The event's public id (as `log` prints it), used in the contract's `increases[].event`."""
    return ids.event_id(event.originator_id, event.originator_version)
