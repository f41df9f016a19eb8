"""The application's clock: the one place chronicle reads the time of an event."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

TICK = timedelta(microseconds=1)


def utc_now() -> datetime:
    return datetime.now(UTC)


class Clock:
    """Timestamps for the events of one unit of work, strictly increasing: a unit of work saves its
    events (several aggregates' in a batch) in the order they were decided, which is their time order."""

    def __init__(self) -> None:
        self._last: datetime | None = None

    def __call__(self) -> datetime:
        now = utc_now()
        if self._last is not None and now <= self._last:
            now = self._last + TICK
        self._last = now
        return now
