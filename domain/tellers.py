"""The one rule of every explanation: each event type has its teller, and an event without one is an
error, never a sentence made of its class name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class Unexplained(LookupError):
    """An event type no teller knows: a gap in the code (every event type has its sentences), not
    anything a user typed or a file held, since a stored event of an unknown type never decodes."""

    def __init__(self, event: object):
        super().__init__(f"no teller for the event type {type(event).__name__}")


def tell(tellers: Mapping[type, Callable[[Any, str], str]], event: object, name: str) -> str:
    """The sentences of `event` (recorded on character `name`) by its type's teller in `tellers` (a later
    version of an event type, a subclass, is told as the type it extends)."""
    for kind in type(event).__mro__:
        teller = tellers.get(kind)
        if teller is not None:
            return teller(event, name)
    raise Unexplained(event)
