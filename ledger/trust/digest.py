"""Holding a ledger to what it was: a digest over every aggregate's head hash.

Each event's hash covers its content and its aggregate's previous hash, so an aggregate's newest
hash stands for its whole history, and one digest over every aggregate's (id, version, hash)
stands for the whole campaign. A digest is written `N-HEX`: N is the campaign's number of events
then (the sum of its aggregates' versions), HEX the sha256 (128 bits shown) of its heads. Noted
somewhere else (a session's end, `campaign show`, a printed export), it lets `verify --digest`
prove that the log's first N events of the campaign are still exactly those: a log rewritten from
any point before them, even with every hash recomputed, no longer yields it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol
from uuid import UUID

from ...domain.errors import BadInput, ChronicleError
from ..store.mapper import mapper_of

if TYPE_CHECKING:
    from ..store.chronicle import Chronicle

Head = tuple[UUID, int, str]  # aggregate id, version, hash of that version's event
SHOWN = 32  # hex digits of the sha256


class Counting(Protocol):
    """What a digest's check reads of the walk that feeds it (verify's `Verifier`): how many events it took."""

    count: int


def of_heads(heads: Iterable[Head]) -> str:
    """The hex digest of a set of heads (order does not matter)."""
    lines = sorted(f"{ident}:{version}:{head}\n" for ident, version, head in heads)
    return hashlib.sha256("".join(lines).encode()).hexdigest()[:SHOWN]


def noted(heads: list[Head]) -> str:
    return f"{sum(version for _, version, _ in heads)}-{of_heads(heads)}"


def parse(text: str) -> tuple[int, str]:
    """`N-HEX` as (N, HEX); anything else is bad input."""
    found = re.fullmatch(rf"(\d{{1,18}})-([0-9a-f]{{{SHOWN}}})", text.strip().lower())
    if found is None or int(found.group(1)) == 0:  # (a campaign has its start at least: `0-` is no digest)
        raise BadInput(f"--digest takes a digest as `campaign show` prints it (N-HEX), got {text!r}")
    return int(found.group(1)), found.group(2)


def digest(app: Chronicle, campaign_id: UUID) -> str:
    """The campaign's digest now, from the events table: its heads at the log's last position when
    asked, once the index (which lists the campaign's characters) has caught up at least that far,
    so the digest is of the campaign's first N events in log order (a writer committing meanwhile
    comes after them). The campaign's aggregates are the campaign and the characters the index lists for it."""
    stop = app.recorder.max_notification_id() or 0
    app.index.catch_up()
    idents = [campaign_id, *(UUID(str(row[0])) for row in app.index.characters(campaign_id))]
    table, at = app.views.events
    marks = ", ".join("?" * len(idents))
    rows = app.views.query(
        f"SELECT originator_id, originator_version, state FROM {table} AS e WHERE originator_id IN ({marks})"
        f" AND originator_version = (SELECT MAX(originator_version) FROM {table}"
        f" WHERE originator_id = e.originator_id AND {at} <= ?)",
        [*(app.views.originator(ident) for ident in idents), stop],
    )
    heads = [
        (UUID(str(oid)), version, mapper_of(app).decode_state(bytes(state))["hash"]) for oid, version, state in rows
    ]
    return noted(heads)


class Against:
    """What the log must still extend, checked as `verify` walks it: the heads of an export
    (`--against`), and a noted digest (`--digest`) over the campaign's first N events."""

    def __init__(self, heads: dict[UUID, tuple[int, str]] | None = None, digest: tuple[int, str] | None = None):
        self.heads, self.digest = heads or {}, digest
        self.now: dict[UUID, tuple[int, str]] = {}
        self.found: list[dict[str, Any]] = []
        self.matched: set[UUID] = set()

    def seen(self, position: int, owner: UUID, version: int, head: str, checker: Counting) -> None:
        """The campaign's next event, at `position`, the `checker.count`-th it has; `head` is the hash
        its content has now (not the hash it claims)."""
        wanted = self.heads.get(owner)
        if wanted is not None and wanted[0] == version:
            self.matched.add(owner)
            if wanted[1] != head:
                self.found.append(
                    {"position": position, "problem": "differs from the export: the log was rewritten up to this event"}
                )
        if self.digest is not None:
            self.now[owner] = (version, head)
            count, expected = self.digest
            if checker.count == count and of_heads((o, v, h) for o, (v, h) in self.now.items()) != expected:
                self.found.append(
                    {
                        "position": position,
                        "problem": f"the campaign's first {count} events no longer"
                        " match the digest noted then: the log was rewritten",
                    }
                )

    def problems(self, count: int) -> list[dict[str, Any]]:
        found = list(self.found)
        if self.digest is not None and count < self.digest[0]:
            found.append(
                {
                    "position": 0,
                    "problem": f"the digest was noted after {self.digest[0]} events; the log"
                    f" has {count}: events were removed",
                }
            )
        missing = len(self.heads.keys() - self.matched)
        if missing:
            found.append(
                {
                    "position": 0,
                    "problem": f"{missing} aggregate(s) of the export no longer reach the"
                    " version exported: events were removed",
                }
            )
        return found


class SessionEnd(NamedTuple):
    """A session's end, and the digest it noted: of the campaign's first `events`, the last at log position `nth`."""

    number: int
    position: int  # of the SessionEnded event
    events: int
    digest: str
    nth: int | None  # the log position of the campaign's `events`-th event (None: the log has fewer)


def session_ends(app: Chronicle, campaign_id: UUID) -> list[SessionEnd]:
    """The campaign's session ends that noted a digest, in log order. Each noted the campaign's first N
    events, which no later write can change: `verify` holds the log to them (`Boundaries`), so an
    event moved across a session's end (log positions swapped) or removed before it is seen."""
    from ...domain.campaign import SessionEnded

    table, at = app.views.events
    found = []
    try:
        rows = app.views.query(
            f"SELECT {at}, originator_version FROM {table} WHERE originator_id = ? AND topic LIKE ? ORDER BY {at}",
            (app.views.originator(campaign_id), "%:SessionEnded"),
        )
        for position, version in rows:
            (event,) = app.events.get(campaign_id, gt=version - 1, lte=version)
            if isinstance(event, SessionEnded) and event.digest:
                count, noted = parse(event.digest)
                found.append(SessionEnd(event.number, position, count, noted, _nth(app, campaign_id, count)))
    except (ChronicleError, ValueError):  # an unreadable or forged event: reported by the walk itself
        return []
    return found


def _nth(app: Chronicle, campaign_id: UUID, count: int) -> int | None:
    rows = app.views.query(
        "SELECT position FROM chronicle_log WHERE campaign = (SELECT position FROM chronicle_campaigns WHERE id = ?)"
        " ORDER BY position LIMIT 1 OFFSET ?",
        (str(campaign_id), count - 1),
    )
    return rows[0][0] if rows else None


class Boundaries:
    """What a share of `verify` (ledger/trust/verify.py) notes for the session ends' digests: at each of the
    positions `nth`, the heads its aggregates changed since the one before (merged by `session_problems`)."""

    def __init__(self, ends: list[SessionEnd]):
        self.positions = sorted(end.nth for end in ends if end.nth is not None)
        self.changes: list[dict[UUID, tuple[int, str]]] = []
        self._changed: dict[UUID, tuple[int, str]] = {}

    def seen(self, position: int, owner: UUID, version: int, head: str) -> None:
        """The share's next event of the campaign (in log order), `head` the hash its content has now."""
        while len(self.changes) < len(self.positions) and position > self.positions[len(self.changes)]:
            self.changes.append(self._changed)
            self._changed = {}
        self._changed[owner] = (version, head)

    def report(self) -> list[dict[UUID, tuple[int, str]]]:
        while len(self.changes) < len(self.positions):
            self.changes.append(self._changed)
            self._changed = {}
        return self.changes


def session_problems(ends: list[SessionEnd], shares: list[list[dict[UUID, tuple[int, str]]]]) -> list[dict[str, Any]]:
    """The session ends whose digest the campaign's first N events (each share's `Boundaries`) no longer make."""
    found, heads = [], {}
    reached = sorted((end for end in ends if end.nth is not None), key=lambda end: end.nth or 0)
    for i, end in enumerate(reached):
        for changes in shares:
            heads.update(changes[i])
        if of_heads((owner, version, head) for owner, (version, head) in heads.items()) != end.digest:
            found.append({"position": end.position, "problem": _unlike(end, "no longer make the digest it noted")})
    return found + [
        {"position": end.position, "problem": _unlike(end, "are no longer in the log")}
        for end in ends
        if end.nth is None
    ]


def _unlike(end: SessionEnd, what: str) -> str:
    return (
        f"session {end.number} ended after the campaign's first {end.events} events, which {what}:"
        " events before its end were moved, removed or rewritten"
    )
