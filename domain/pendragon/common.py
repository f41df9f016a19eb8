"""Helpers every PenDragon Pass event shares."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .. import ids

if TYPE_CHECKING:
    from ..events import DomainEvent


def event_id(event: DomainEvent) -> str:
    """The event's public id (as `log` prints it), used in the contract's `increases[].event`."""
    return ids.event_id(event.originator_id, event.originator_version)


def moved(module: str, name: str) -> type[DomainEvent]:
    """A rule module's `__getattr__`: an event class it held before `events.py`, for an old topic
    (`chronicle.domain.pendragon.checks:Checked`) resolved before the package registered it."""
    found = None
    if not name.startswith("__"):  # the import machinery asks each module for `__path__` while the package loads
        legacy = importlib.import_module(f"{__package__}.legacy_topics")  # by name: it imports the rule modules
        held = legacy.LEGACY_MODULES.get(module.rpartition(".")[2], ())
        found = next((cls for cls in held if cls.__name__ == name), None)
    if found is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    return found
