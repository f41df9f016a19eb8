"""The chronicle application: the library's `Application` with pydantic events, plus the index."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from functools import cached_property
from typing import TYPE_CHECKING, Any

from eventsourcing.application import Application

from ...domain.errors import BadInput
from ...domain.json_bounds import check_document, check_int64
from ...domain.text import check_json, encode_error, first_line
from ...projections.store import ViewStore, views_of
from ...projections.told import Told
from .feed import LogFeed
from .mapper import OrjsonTranscoder, PydanticMapper
from .sealing import unreadable
from .targets import APPLICATION_ID, POSTGRES_FACTORY, UNMARKED, redact, secrets, settings
from .targets import connection as connected

if TYPE_CHECKING:
    from ...projections.changes import Changes
    from ...projections.characters import Characters
    from ...projections.index import Index

SCHEMA_LOCK = 0x6368726F6E69636C  # "chronicl": the advisory lock key for creating tables


class Chronicle(Application):
    name = "chronicle"
    target = ""  # the SQLite path or PostgreSQL URL it was opened at (`open_ledger`)

    def construct_mapper(self) -> Any:
        return self.factory.mapper(transcoder=CheckedTranscoder(), mapper_class=PydanticMapper)

    @property
    def has_units(self) -> bool:
        """Whether `unit` is one transaction here (SQLite and PostgreSQL as chronicle sets them up)."""
        return hasattr(getattr(self.factory, "datastore", None), "unit")

    def unit(self, immediate: bool = False) -> Any:
        """One transaction for everything done inside it (ledger/store/sqlite.py, ledger/store/postgres.py):
        a command's reads, its events and the read models' catching up, all or nothing."""
        unit = getattr(getattr(self.factory, "datastore", None), "unit", None)
        if unit is None:
            return nullcontext()
        return unit(immediate, getattr(self.recorder, "lock_events", None))

    def unit_key(self) -> object:
        """Which PostgreSQL unit is open on this thread, if one is (ledger/store/postgres.py): it holds the events
        table's lock from its start, so what it read stays so until it writes."""
        unit_key = getattr(getattr(self.factory, "datastore", None), "unit_key", None)
        return unit_key() if unit_key is not None else None

    def caught_up_in_unit(self) -> bool:
        """Whether the index was caught up with the log in the open PostgreSQL unit, which has saved nothing since
        (`index_caught_up`)."""
        key = self.unit_key()
        return key is not None and self.__dict__.get("_chronicle_index_caught_up") == key

    def index_caught_up(self, caught_up: bool = True) -> None:
        """Note that the index is caught up with the log in the open unit (or, saving, that it no longer is)."""
        self.__dict__["_chronicle_index_caught_up"] = self.unit_key() if caught_up else None

    @cached_property
    def views(self) -> ViewStore:
        return views_of(self)

    @cached_property
    def feed(self) -> LogFeed:
        """The log as the read models are fed it."""
        return LogFeed(self, self.views)

    @cached_property
    def index(self) -> Index:
        from ...projections.index import Index  # lazily: it loads the domain's models (a `show` does not need them)

        return Index(self.views, self.feed)

    @cached_property
    def told(self) -> Told:
        """How `log` told the events commands saved (projections/told.py)."""
        return Told(self.views)

    @cached_property
    def changes(self) -> Changes:
        """Each character's changes of condition and Status (projections/changes.py): its folded states
        live as long as this application."""
        from ...projections.changes import Changes

        return Changes(self.views, self.feed)

    @cached_property
    def characters(self) -> Characters:
        from ...projections.characters import Characters  # lazily: `chronicle --help` needs no read model

        return Characters(self.views, self.feed)


class CheckedTranscoder(OrjsonTranscoder):
    """Every event and snapshot is checked as it is encoded to be stored: no control character or
    lone surrogate in any of its texts (domain/text.py), no integer beyond 64 bits (a derived total
    too: orjson writes them up to 2**64 - 1)."""

    def encode(self, obj: Any) -> bytes:
        try:
            data = super().encode(obj)
        except TypeError as error:  # orjson: "str is not valid UTF-8: surrogates not allowed"
            check_document(obj)  # (or "Integer exceeds 64-bit range")
            raise encode_error(error) from None
        check_json(data)
        check_int64(data)
        return data


def open_ledger(target: str, synced: bool = True, create: bool = True) -> Chronicle:
    """Open (creating if needed) the ledger at a SQLite path or PostgreSQL URL. Unless `synced`,
    SQLite commits do not wait for the disk (for writes a later synced commit puts in place).
    Unless `create`, a SQLite file that does not exist is bad input (for commands that only read)."""
    env = settings(target, create)
    if not synced:
        env["SQLITE_SYNCHRONOUS"] = "NORMAL"
    postgres = env["PERSISTENCE_MODULE"] == POSTGRES_FACTORY
    try:
        if postgres:
            with _schema_lock(target) as (made, present):
                app = Chronicle(env={**env, "CREATE_TABLE": "false"} if made else env)
            app.__dict__.update(present)
        else:
            app = Chronicle(env={**env, "CREATE_TABLE": "false"})  # made below if the file lacks them
            first = _sqlite_schema(app, UNMARKED in env)
    except BadInput:
        raise
    except Exception as error:  # the library raises driver-specific errors: one clear line each
        raise BadInput(f"cannot open {redact(target)}: {_reason(error, target)}") from None
    if postgres:
        found = app.recorder.select_notifications(start=1, limit=1)
        first = found[0].state if found else None
    _check_readable(app, target, first)
    recorder: Any = app.recorder  # a SealedRecorder (ledger/store/sealing.py)
    mapper: Any = app.mapper  # a PydanticMapper (ledger/store/mapper.py)
    recorder.decode, recorder.encrypting = mapper.decode_state, mapper.cipher is not None
    if (
        first is None and create
    ):  # an empty ledger: its events table's tripwire from its first event (ledger/trust/tripwire.py)
        from ..trust import tripwire

        if not tripwire.armed(app):
            tripwire.arm(app)
    app.target = target  # where it is: the user's folder keeps their choices per ledger (ledger/application/current.py)
    return app


def _sqlite_schema(app: Chronicle, unmarked: bool = False) -> bytes | None:
    """Make what a SQLite ledger lacks of the library's tables (events, tracking), asking first
    which it has instead of issuing CREATE TABLE IF NOT EXISTS at every open; note whether it has
    snapshots (ledger/store/snapshots.py); mark a ledger made before chronicle marked its files (`unmarked`).
    Returns the first event's stored state, if any. Asked on one connection outside any transaction:
    two reads, each a consistent snapshot of its own."""
    factory: Any = app.factory  # the SQLite factory (durable_sqlite.py), with its datastore
    recorder: Any = app.recorder
    events = recorder.events_table_name
    with factory.datastore.get_connection(commit=False) as connection:
        raw = connection._sqlite_conn
        tables = {name for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if unmarked:  # made before chronicle marked its files (ledger/store/targets.py)
            raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        first, migrated = None, False
        if {events, "tracking"} <= tables:
            first, migrated = raw.execute(
                f"SELECT (SELECT state FROM {events} ORDER BY rowid LIMIT 1),"  # noqa: S608 - the library's own name
                " EXISTS (SELECT 1 FROM tracking WHERE application_name = '__migration__')"
            ).fetchone()
        elif events in tables:
            row = raw.execute(f"SELECT state FROM {events} ORDER BY rowid LIMIT 1").fetchone()  # noqa: S608
            first = row[0] if row else None
    if events not in tables:
        recorder.create_table()
    if not migrated:  # the library's tracking table, made (or migrated to one row per view) as its factory would
        _make_tracking(factory)
    app.__dict__["_chronicle_snapshots_exist"] = "stored_snapshots" in tables
    return first


def _make_tracking(factory: Any) -> None:
    """Make the tracking table as the library's factory would. Two processes opening a new file at
    once may both find it missing: the one that loses the race to record the table's migration
    finds it recorded by the other, which is all it needed."""
    from eventsourcing.persistence import IntegrityError

    tracking = type(factory).tracking_recorder_class(datastore=factory.datastore)
    try:
        tracking.create_table()
    except IntegrityError:
        if tracking.max_tracking_id(tracking.table_migration_identifier) is None:
            raise


def _check_readable(app: Chronicle, target: str, first: bytes | None) -> None:
    """Decode the first stored event: a missing or wrong CHRONICLE_CIPHER_KEY is one clear error
    here, instead of garbage or a decoding fault somewhere later."""
    if first is None:
        return
    try:
        app.mapper.decode_state(first)  # type: ignore[attr-defined]  # a PydanticMapper (ledger/store/mapper.py)
    except Exception:
        app.close()
        raise BadInput(f"cannot read {redact(target)}: {unreadable(app.mapper.cipher is not None)}") from None


def _reason(error: BaseException, target: str) -> str:
    return hide_password(first_line(error), target)


def hide_password(text: str, target: str) -> str:
    for secret in sorted(secrets(target), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


@contextmanager
def _schema_lock(target: str) -> Iterator[tuple[bool, dict[str, bool]]]:
    """Connect once directly, so an unreachable server or a missing database gets its real reason;
    and hold a PostgreSQL advisory lock while the library creates or replaces its tables and
    functions, which concurrent sessions cannot do at once ("tuple concurrently updated"). Gives
    whether they are all made already: then the library is told not to issue its CREATE statements,
    whose locks on the events table queued behind writers (and writers behind them: such an open
    could be chosen as a deadlock's victim). And, asked in the same statement, what this process
    otherwise asks once in its first write (docs/scale.md): whether the snapshots table, the stored
    Merkle tree's and the events table's tripwire are there (each noted only when it is: one made since
    is found as before)."""
    import psycopg

    try:
        connection = psycopg.connect(**connected(target), autocommit=True)
    except psycopg.Error as error:
        raise BadInput(f"cannot open {redact(target)}: {_reason(error, target)}") from None
    from .tables import EVENTS_TRIGGER, TREE_NODES

    name = Chronicle.name
    with connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        made = connection.execute(
            "SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL AND to_regtype(%s) IS NOT NULL,"
            " to_regclass(%s) IS NOT NULL, to_regclass(%s) IS NOT NULL,"
            " EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = %s AND NOT tgisinternal)",
            (
                f"public.{name}_events",
                f"public.{name}_tracking",
                "public.stored_event_uuid",
                f"public.{name}_snapshots",
                f"public.{TREE_NODES}",
                EVENTS_TRIGGER,
            ),
        ).fetchone()
        found = made or (False, False, False, False)
        present = {
            key: True
            for key, there in zip(
                ("_chronicle_snapshots_exist", "_chronicle_tree_made", "_chronicle_tripwire"), found[1:], strict=True
            )
            if there
        }
        yield bool(found[0]), present
