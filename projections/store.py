"""Read-model tables beside the event tables, written in one transaction with the library's tracking.

The same SQL serves SQLite and PostgreSQL; only the parameter marker differs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import Tracking


class ViewStore:
    def __init__(self, app: Any):
        self.app = app
        self.tracker = app.factory.tracking_recorder()
        self.postgres = type(self.tracker).__module__.endswith("postgres")
        self._ready: set[str] = set()

    def sql(self, statement: str) -> str:
        return statement.replace("?", "%s") if self.postgres else statement

    @contextmanager
    def transaction(self, commit: bool = True) -> Iterator[Any]:
        with self.tracker.datastore.transaction(commit=commit) as cursor:
            yield cursor

    def execute(self, cursor: Any, statement: str, params: Sequence[Any] = ()) -> Any:
        cursor.execute(self.sql(statement), tuple(params))
        return cursor

    def executemany(self, cursor: Any, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            cursor.executemany(self.sql(statement), [tuple(r) for r in rows])

    def query(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.transaction(commit=False) as cursor:
            return [_values(row) for row in self.execute(cursor, statement, params).fetchall()]

    def ensure(self, name: str, ddl: Sequence[str]) -> None:
        if name in self._ready:
            return
        with self.transaction() as cursor:
            for statement in ddl:
                cursor.execute(statement)
        self._ready.add(name)

    def position(self, view: str) -> int:
        return self.tracker.max_tracking_id(view) or 0

    def track(self, cursor: Any, view: str, position: int) -> None:
        self.tracker._insert_tracking(cursor, Tracking(view, position))

    def reset(self, cursor: Any, view: str) -> None:
        """Forget a view's position (rebuild)."""
        table = self.tracker.tracking_table_name if self.postgres else "tracking"
        self.execute(cursor, f"DELETE FROM {table} WHERE application_name = ?", (view,))


def _values(row: Any) -> tuple[Any, ...]:
    """PostgreSQL rows come as dicts (the library's row factory), SQLite rows as sequences."""
    return tuple(row.values()) if isinstance(row, dict) else tuple(row)
