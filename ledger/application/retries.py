"""Losing a race, and trying again: every write of the application layer (a command, a batch, a rebuild)
that another writer beat to the same records, or found SQLite locked, is rolled back whole and run again
after a jittered pause, at most RETRIES times; then it is a `Conflict` (exit 1) saying what to do."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from eventsourcing.persistence import IntegrityError, OperationalError

from ...domain.errors import Conflict

T = TypeVar("T")

RETRIES = 30
BACKOFF_BASE, BACKOFF_CAP = 0.01, 1.0  # seconds: at most ~15 s of waiting in all, on average
PESSIMISTIC_FROM = 3  # lost races after which a writer takes the write lock before it reads (SQLite)


def lost_race(problem: BaseException) -> bool:
    """A write that may succeed if re-decided: a version already taken, SQLite still locked, or
    PostgreSQL's deadlock detector choosing this transaction (all of it rolled back)."""
    if isinstance(problem, IntegrityError):
        return True
    text = str(problem).lower()
    return isinstance(problem, OperationalError) and any(word in text for word in ("locked", "busy", "deadlock"))


def backoff(attempt: int) -> None:
    """Full jitter (a random pause up to a doubling cap) so racing writers spread out."""
    time.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt)))


def retried(attempt: Callable[[int], T], gave_up: Callable[[int], str]) -> T:
    """`attempt(n)` for n = 0, 1, ... until it does not lose a race (its own transaction rolled back
    whole when it does), pausing between tries; after RETRIES lost races, a `Conflict` saying
    `gave_up(RETRIES)`. Any other failure is raised as it is."""
    tries = RETRIES  # (read once: a test sets fewer)
    for n in range(tries):
        try:
            return attempt(n)
        except Exception as problem:
            if not lost_race(problem):
                raise
            backoff(n)
    raise Conflict(gave_up(tries))
