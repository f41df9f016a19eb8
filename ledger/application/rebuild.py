"""`rebuild`: the read models replayed from the whole log into fresh tables and swapped in (by worker
processes side by side on long logs: ledger/bulk/rebuild.py), then every snapshot cleared, so that none
a `verify` found unlike its events is trusted by a later write."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..bulk.rebuild import PROJECTIONS
from ..bulk.rebuild import rebuild as replay
from ..store.chronicle import open_ledger

if TYPE_CHECKING:
    from .ledger import Ledger

__all__ = ["PROJECTIONS", "rebuild"]


def rebuild(
    ledger: Ledger,
    names: Sequence[str] = PROJECTIONS,
    workers: int | None = None,
    progress: Callable[[int], Callable[[float], None]] | None = None,
) -> dict[str, int]:
    """Rebuild the named read models of LEDGER's database (every campaign in it): how many events each
    replayed. `progress(total)`, if given, returns the function to call with each part done."""
    from ..store import snapshots

    ledger.close()  # no connection is held while the workers are forked: each opens its own
    counts = replay(functools.partial(open_ledger, ledger.target), names, workers, progress)
    snapshots.clear(ledger.app)
    return counts
