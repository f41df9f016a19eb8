"""`export` and `import`: a campaign's whole log as JSON Lines, and such a file checked whole and written
into a ledger (the work itself, on worker processes for long logs, is ledger/bulk/transfer.py's)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    from .ledger import Ledger


def export(ledger: Ledger) -> tuple[str, Iterator[bytes]]:
    """The campaign's name, and its lines (each event, then the closing line with their count and digest),
    made as they are read: an index that lacks events of the log is one clear error before any line."""
    from ..bulk.transfer import export_lines

    session = ledger.read()
    return session.campaign.name, export_lines(session)


def import_(ledger: Ledger, source: BinaryIO, workers: int | None = None) -> dict[str, Any]:
    """The export in SOURCE checked (every hash, chain, outcome and signature) and written, all or nothing;
    `{"events": N, ...}`."""
    from ..bulk.transfer import import_lines
    from ..store.chronicle import open_ledger

    ledger.close()  # the import opens the ledger itself: not held while its workers are forked
    return import_lines(functools.partial(open_ledger, ledger.target), source, workers)
