"""PostgreSQL as the library sets it up, with its events' sealing checked by every writer (ledger/sealing.py).

Selected with `APPLICATION_RECORDER_TOPIC=chronicle.ledger.durable_postgres:SealedPostgresRecorder`.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresApplicationRecorder

from .sealing import SealedRecorder


class SealedPostgresRecorder(SealedRecorder, PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first_event_sql = (
            f"SELECT state FROM {self.events_table_name} "  # noqa: S608 - the library's own name
            "ORDER BY notification_id LIMIT 1"
        )

    def _insert_stored_events(self, curs: Any, stored_events: Any, **kwargs: Any) -> None:
        self._lock_table(curs)  # first, so no other writer's first event can slip in after the check
        self.check_sealing(curs)
        super()._insert_stored_events(curs, stored_events, **kwargs)
