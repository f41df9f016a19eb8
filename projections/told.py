"""The sentences `log` tells people, kept as they were told when a command recorded the event: `log`
of the events a table has just played reads them as rows instead of loading the rules to explain
them again (start-up is most of what a `log --tail 20` costs).

A cache beside the read models, not a fold of the log: each command writes the rows of the events it
saved, in their transaction (ledger/application/ledger.py), and `import` those of the events it checked, in
its own (ledger/bulk/transfer.py). Events that came in by `batch` or before this table existed have none,
and `log` explains those from the events themselves. A row holds the name it was told with; after a
rename `log` tells the event again. `verify` checks every row against its event; `rebuild` clears
them with the index.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import orjson

from .store import ViewStore

if TYPE_CHECKING:
    from ..domain.events import DomainEvent
    from ..domain.explain import PositionOf

VIEW = "told"
VERSION = 4  # of the table and of the sentences in it: a change to how events are explained raises it
TABLES = {
    # `name`: the character's name the sentences were told with ("" for the campaign's own events);
    # `amended`: for a correction, what `log` says about it beside the event it corrects (JSON)
    "chronicle_told": "position {position}, name TEXT NOT NULL, by TEXT NOT NULL, told TEXT NOT NULL, amended TEXT",
}


class Told:
    def __init__(self, store: ViewStore):
        self.store = store
        store.ensure(VIEW, VERSION, TABLES, ())

    def write(
        self, cursor: Any, saved: Sequence[tuple[int, DomainEvent, str, str]], position_of: PositionOf | None = None
    ) -> None:
        """The rows of events just saved: (log position, event, character name or "", rule system)."""
        self.store.insert(cursor, "chronicle_told", [told_row(*each, position_of) for each in saved])


def told_row(
    position: int, event: DomainEvent, name: str, system: str, position_of: PositionOf | None = None
) -> tuple[Any, ...]:
    """An event's row: as `log` tells it, with what a correction says of the event it corrects. A
    correction names the events it speaks of by their log positions (`#47`) where `position_of` is given."""
    amended_type, explain = _domain()
    amended = None
    if isinstance(event, amended_type):
        # the events whose outcome it changed (by id): `log` tells those again, struck and corrected
        from ..domain.ids import event_id

        changed = sorted({event_id(event.originator_id, c["version"]) for c in event.changes if not c.get("hit")})
        amended = orjson.dumps(
            {"target": event.target, "void": event.void, "reason": event.reason, "changed": changed}
        ).decode()
    return (position, name, event.by, explain(event, name, system, position_of), amended)


@functools.cache
def _domain() -> tuple[Any, Any]:
    """The correction's class and `explain`, imported on first use (an import tells every event it checks):
    reading rows needs no domain model."""
    from ..domain.amendments import Amended
    from ..domain.explain import explain

    return Amended, explain
