"""A nonce is spent once per campaign, whatever the front door that signed it (the command line, a batch, the
shell, an assistant, the table view, an import).

The nonces are in the log itself: every signed event keeps its `signed` block (document, nonce, key,
signature), so they travel with an export. The index folds them into `chronicle_nonces` (projections/index.py),
a read model like any other (`rebuild` makes it again from the log). A command spends its nonce in its own
transaction, right after its events are inserted and before the index folds them: a plain insert into that
table, whose key (campaign, nonce) a second command carrying the same nonce fails, so two replays racing each
other cannot both land. One command may record several events with one signature and nonce (an attack and its
hits): they spend it once. `verify` and `import` name a nonce that two commands of the log carry
(ledger/trust/derivation.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from ...domain.errors import BadSignature
from ...projections.index import NONCES

if TYPE_CHECKING:
    from ..store.chronicle import Chronicle


def refuse_spent(app: Chronicle, campaign: UUID, nonce: str) -> None:
    """Refuse (401 on the table view) a nonce the campaign spent before; the index is caught up."""
    at = app.index.spent(campaign, nonce)
    if at is not None:
        raise BadSignature(f"that nonce was used before in this campaign (#{at}): a signed command is accepted once")


def commands(saved: Sequence[tuple[int, Any]], campaign_of: dict[UUID, UUID]) -> list[tuple[str, str, int]]:
    """(campaign id, nonce, first position) of each command among SAVED (positions and events, in log order):
    a run of events carrying one signed block is one command."""
    found: list[tuple[str, str, int]] = []
    last: Any = None
    for at, event in saved:
        signed = event.signed
        if signed is not None and signed != last:
            found.append((str(campaign_of[event.originator_id]), signed.nonce, at))
        last = signed
    return found


def spend(app: Chronicle, spent: Iterable[tuple[str, str, int]]) -> None:
    """Spend each (campaign, nonce, position) in the open transaction; one spent before is refused and the
    transaction fails with it, nothing written."""
    rows = list(spent)
    if not rows:
        return
    views = app.views
    app.index  # its tables, made  # noqa: B018
    try:
        with views.transaction() as cursor:
            views.executemany(cursor, f"INSERT INTO {NONCES} (campaign, nonce, position) VALUES (?, ?, ?)", rows)
    except Exception as problem:  # spent before, or by another writer meanwhile (PostgreSQL)
        if not _conflict(problem):
            raise
        raise BadSignature("that nonce was used before in this campaign: a signed command is accepted once") from None


def _conflict(problem: Exception) -> bool:
    if isinstance(problem, IntegrityError):
        return True
    try:
        import psycopg
    except ImportError:
        return False
    return isinstance(problem, psycopg.errors.IntegrityError)


def seeded_nonce(seed: int, campaign: UUID, touched: Iterable[tuple[Any, int]]) -> str:
    """A seeded ledger's nonce (tests, the demo): as reproducible as its dice, and unique in the campaign, from
    the seed and the first new event's place in its aggregate's chain (no two commands share one)."""
    for aggregate, start in touched:
        fresh = aggregate.pending_events[start:]
        if fresh:
            first = fresh[0]
            place = f"{seed}:{campaign}:{first.originator_id}:{first.originator_version}:{first.prev_hash}"
            return "seed-" + hashlib.sha256(place.encode()).hexdigest()[:24]
    return f"seed-{seed}"
