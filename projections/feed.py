"""What the read models are fed: the log's events, in order, with their positions.

The write side decides how events are stored and decoded (ledger/store/feed.py implements these
protocols); the read models only fold what they are given. Nothing here knows a database.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

if TYPE_CHECKING:  # the domain's models are built only when a fold needs an event
    from ..domain.events import Event


class Logged(Protocol):
    """One event of the log as a read model folds it. `state` is its stored fields, decoded (cheap:
    most folds need only the envelope); `event()` builds the domain event, upcast to its class's
    current version, only when a fold needs it."""

    @property
    def position(self) -> int: ...

    @property
    def originator_id(self) -> UUID: ...

    @property
    def originator_version(self) -> int: ...

    @property
    def topic(self) -> str: ...

    @property
    def state(self) -> Mapping[str, Any]: ...

    @property
    def event_class(self) -> type:
        """The domain event class the topic names."""

    def event(self, folding: bool = False) -> Event:
        """The domain event. `folding`: only to be folded into a read model (an optional dice
        record may be left out)."""


class Feed(Protocol):
    def last(self) -> int:
        """The log's last position (0 when it is empty)."""

    def after(self, position: int, limit: int) -> Sequence[Logged]:
        """Up to `limit` events after `position`, oldest first."""

    def window(self, after: int, stop: int, limit: int, share: tuple[int, int] = (0, 1)) -> Iterator[Sequence[Logged]]:
        """The events after `after` up to `stop`, about `limit` a page; with `share=(k, n)`, only those
        of the k-th of n shares of the aggregates (every aggregate's events fall in one share)."""
