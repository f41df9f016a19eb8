"""Read-model tables beside the event tables, written in one transaction with the library's tracking.

The same SQL serves SQLite and PostgreSQL; only the parameter marker differs, and the log
position column, which SQLite keeps as the table's own row id.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Recorder, Tracking, TrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder


class ViewStore(TrackingRecorder):
    """The read models' tables and their positions: a tracking recorder of the library's, over the
    application's own datastore, whose subclasses (`views_of`) are the factory's tracking recorder
    class, as the library's projection example makes its views. Rows and the position they were
    folded up to are written in one transaction (`track` inside `transaction`)."""

    events: tuple[str, str]  # the events table as SQL names it, and its log position column
    postgres: bool

    def attach(self, events_recorder: Recorder) -> None:
        """Name the application's events table for the read models' queries, which join it on
        position rather than index what it indexes already (SQLite's position is the row id)."""
        self.postgres = not isinstance(self, SQLiteTrackingRecorder)  # (importing the postgres module costs a `show`)
        if self.postgres:
            schema, table = self.datastore.schema, events_recorder.events_table_name  # type: ignore[attr-defined]
            self.events = f'"{schema}"."{table}"', "notification_id"
        else:
            self.events = events_recorder.events_table_name, "rowid"  # type: ignore[attr-defined]
        self._ready: set[str] = set()
        self._schemas: dict[str, int] | None = None  # read models' versions, read at the first `ensure`
        # the views' positions as a PostgreSQL unit read or moved them (ledger/store/postgres.py's `unit_key`)
        self._positions: tuple[object, dict[str, int]] = (None, {})
        self.failed_from: tuple[tuple[str, int], ...] | None = None  # where a fold in a unit last failed (catchup.py)

    def originator(self, ident: UUID) -> Any:
        """An aggregate id as the events table holds it (the library's SQLite recorder: its hex)."""
        return ident if self.postgres else ident.hex

    def sql(self, statement: str) -> str:
        return statement.replace("?", "%s") if self.postgres else statement

    @contextmanager
    def transaction(self, commit: bool = True) -> Iterator[Any]:
        with self.datastore.transaction(commit=commit) as cursor:  # type: ignore[attr-defined]
            yield cursor

    def execute(self, cursor: Any, statement: str, params: Sequence[Any] = ()) -> Any:
        cursor.execute(self.sql(statement), tuple(params))
        return cursor

    def executemany(self, cursor: Any, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            cursor.executemany(self.sql(statement), rows)

    def insert(self, cursor: Any, table: str, rows: Sequence[Sequence[Any]]) -> None:
        """Add whole rows (every column, in the table's order). PostgreSQL takes them by COPY: as
        INSERTs it runs a statement a row, which made a rebuild there a quarter as fast as on SQLite."""
        if not rows:
            return
        if self.postgres:
            with cursor.copy(f"COPY {table} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            cursor.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)

    def query(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.transaction(commit=False) as cursor:
            return [_values(row) for row in self.execute(cursor, statement, params).fetchall()]

    # tables -----------------------------------------------------------------------------------

    def create_tables(self, cursor: Any, tables: dict[str, str], suffix: str = "") -> None:
        """Create the tables (`{name: columns}`) afresh under their names plus `suffix`, no index yet."""
        for name, columns in tables.items():
            cursor.execute(f"DROP TABLE IF EXISTS {name}{suffix}")
            cursor.execute(f"CREATE TABLE {name}{suffix} ({self.columns(columns)})")

    def columns(self, columns: str) -> str:
        """`{position}` is the log position column: the row id in SQLite (no separate index to
        maintain), a plain column in PostgreSQL with a unique index built once the rows are in."""
        return columns.format(position="INTEGER PRIMARY KEY" if not self.postgres else "BIGINT NOT NULL")

    def create_indexes(self, cursor: Any, tables: dict[str, str], indexes: Sequence[str]) -> None:
        for name, columns in tables.items():
            if self.postgres and "{position}" in columns:
                cursor.execute(f"CREATE UNIQUE INDEX IF NOT EXISTS {name}_position ON {name} (position)")
        for statement in indexes:
            cursor.execute(statement)

    def analyze(self, cursor: Any, tables: dict[str, str]) -> None:
        """PostgreSQL plans queries from statistics, which tables filled in bulk have none of yet."""
        if self.postgres:
            for name in tables:
                cursor.execute(f"ANALYZE {name}")

    def ensure(self, view: str, version: int, tables: dict[str, str], indexes: Sequence[str]) -> None:
        """Make a read model's tables on first use, and again, empty, when they were made by another
        version of the read model: its rows are then replayed from the log, like a `rebuild`.
        The version is kept as a tracking row of its own (`VIEW:schema`). Tables, position and
        version change in one transaction, so a process racing this one finds them consistent."""
        if view in self._ready:
            return
        if self._schemas is None:
            self._schemas = self._versions()
        if self._schemas.get(view) != version:
            with self.transaction() as cursor:
                self.create_tables(cursor, tables)
                self.create_indexes(cursor, tables, indexes)
                self.reset(cursor, view)
                self.mark(cursor, view, version)
            self._schemas[view] = version
        self._ready.add(view)

    def _versions(self) -> dict[str, int]:
        """Every read model's version, in one query (a command that writes uses three read models)."""
        rows = self.query(
            f"SELECT application_name, MAX(notification_id) FROM {self.tracking_table} GROUP BY application_name"
        )
        for name, position in rows:  # (their positions too, one row a view: a unit's first reads of them)
            if not name.endswith(":schema"):
                self._remember(name, position)
        return {name.removesuffix(":schema"): version for name, version in rows if name.endswith(":schema")}

    def mark(self, cursor: Any, view: str, version: int) -> None:
        """Record which version of a read model its tables are."""
        self.reset(cursor, f"{view}:schema")
        self.track(cursor, f"{view}:schema", version)

    # tracking ---------------------------------------------------------------------------------

    def position(self, view: str) -> int:
        """The view's position; read once per PostgreSQL unit, which holds the events table's lock: another
        process's fold that moves it meanwhile makes this unit's `track` fail (its lost race)."""
        key = self._unit_key()
        held = self._positions
        if key is not None and held[0] == key and view in held[1]:
            return held[1][view]
        if key is not None and self._positions[0] != key:  # a unit's first: every view's, in one statement
            self._positions = (key, {})
            for name, position in self.query(
                f"SELECT application_name, MAX(notification_id) FROM {self.tracking_table} GROUP BY application_name"
            ):
                self._positions[1][name] = position or 0
            if view in self._positions[1]:
                return self._positions[1][view]
        found = self.max_tracking_id(view) or 0
        self._remember(view, found)
        return found

    def _unit_key(self) -> object:
        unit_key = getattr(getattr(self, "datastore", None), "unit_key", None)
        return unit_key() if unit_key is not None else None

    def _remember(self, view: str, position: int | None) -> None:
        key = self._unit_key()
        if key is None:
            return
        if self._positions[0] != key:
            self._positions = (key, {})
        self._positions[1][view] = position or 0

    def track(self, cursor: Any, view: str, position: int, after: int | None = None) -> None:
        """Record the view's new position in the transaction that wrote its rows. With `after`, the
        position the rows were folded from, it moves only from there: another process that moved it
        meanwhile (a rebuild's swap too, which may move it back) makes this the library's
        IntegrityError, nothing recorded, so rows folded from a stale position never land. Without
        `after`, a position already recorded at or beyond `position` is that error."""
        self._positions[1].pop(view, None)
        if after is None:
            self._insert_tracking(cursor, Tracking(view, position))  # type: ignore[attr-defined]
            return
        if after == 0:  # no position yet (or reset): the row must still be missing
            self.execute(cursor, f"INSERT INTO {self.tracking_table} VALUES (?, ?)", (view, position))
            self._remember(view, position)
            return
        moved = self.execute(
            cursor,
            f"UPDATE {self.tracking_table} SET notification_id = ? WHERE application_name = ? AND notification_id = ?"
            " RETURNING notification_id",
            (position, view, after),
        ).fetchone()
        if moved is None:
            raise IntegrityError(f"the {view} read model is no longer at position {after}")
        self._remember(view, position)

    def reset(self, cursor: Any, view: str) -> None:
        """Forget a view's position (the library has no call for it: a rebuild moves positions back)."""
        self._positions[1].pop(view, None)
        self.execute(cursor, f"DELETE FROM {self.tracking_table} WHERE application_name = ?", (view,))

    @property
    def tracking_table(self) -> str:
        """The library's tracking table, as SQL names it (one row per view: the view's position)."""
        return self.tracking_table_name if self.postgres else "tracking"  # type: ignore[attr-defined]


def views_of(app: Application) -> ViewStore:
    """The application's read-model store, made by its factory as the factory makes its tracking recorder."""
    factory = app.factory
    views = factory.tracking_recorder(_views_class(type(factory).tracking_recorder_class))  # type: ignore[attr-defined]
    assert isinstance(views, ViewStore)
    views.attach(app.recorder)
    return views


@functools.cache
def _views_class(tracking_recorder_class: type[TrackingRecorder]) -> type[ViewStore]:
    name = f"{tracking_recorder_class.__name__}Views"
    return type(name, (ViewStore, tracking_recorder_class), {"__module__": __name__})


def aggregate_id(stored: Any) -> UUID:
    """An aggregate id as read from the events table (`ViewStore.originator` the other way):
    PostgreSQL's driver gives a UUID, SQLite the hex."""
    return stored if isinstance(stored, UUID) else UUID(stored)


def _values(row: Any) -> tuple[Any, ...]:
    """PostgreSQL rows come as dicts (the library's row factory), SQLite rows as sequences."""
    return tuple(row.values()) if isinstance(row, dict) else tuple(row)
