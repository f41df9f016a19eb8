"""Words, not identifiers (issue 35): every event type of every system has its teller, and one that has
none is an error, never a sentence made of its class name."""

from __future__ import annotations

import importlib
import pkgutil
from datetime import UTC, datetime
from uuid import uuid4

import pytest

import chronicle.domain
from chronicle.domain import explain as common
from chronicle.domain import systems
from chronicle.domain.events import DomainEvent, Event
from chronicle.domain.explain import explain
from chronicle.domain.tellers import Unexplained

WHEN = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def event_types() -> list[type[DomainEvent]]:
    """Every event class the domain defines that is recorded as it is (no other event class derives from it)."""
    for module in pkgutil.walk_packages(chronicle.domain.__path__, "chronicle.domain."):
        importlib.import_module(module.name)
    found, stack = set(), [DomainEvent]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if not cls.__subclasses__() and cls.__module__.startswith("chronicle.domain."):
            found.add(cls)
    return sorted(found, key=lambda c: (c.__module__, c.__name__))


def system_of(event_type: type) -> str | None:
    for system, package in systems.PACKAGES.items():
        if event_type.__module__.startswith(f"chronicle.domain.{package}."):
            return system
    return None


def test_the_domain_defines_the_events_of_every_system_and_the_common_ones():
    names = {(system_of(t), t.__name__) for t in event_types()}
    for system in systems.PACKAGES:
        assert {(system, e.__name__) for e in systems.get(system).EVENTS} <= names
    assert {(None, "CampaignStarted"), (None, "Amended"), (None, "NoteTaken"), (None, "CampaignChosen")} <= names


@pytest.mark.parametrize("event_type", event_types(), ids=lambda t: f"{t.__module__.split('.')[-2]}.{t.__name__}")
def test_every_event_type_has_its_teller(event_type):
    system = system_of(event_type)
    own = None if system is None else importlib.import_module(f"chronicle.domain.{systems.PACKAGES[system]}.explain")
    assert event_type in (common.TELLERS if own is None else own.TELLERS), f"{event_type.__name__} has no sentences"
    if system is not None:
        assert event_type in systems.get(system).EVENTS  # folded, explained and listed alike


class Unheard(Event):
    """An event type no teller knows (defined here only)."""


def test_an_event_no_teller_knows_is_an_error_not_its_class_name():
    event = Unheard(originator_id=uuid4(), originator_version=2, timestamp=WHEN, by="gm")
    with pytest.raises(Unexplained, match="no teller for the event type Unheard"):
        explain(event, "Bruno", None)
    for system in systems.PACKAGES:
        with pytest.raises(Unexplained):
            explain(event, "Bruno", system)
