"""The chronicle application: the library's `Application` with pydantic events, plus the index."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any

from eventsourcing.application import Application

from ..domain.errors import BadInput
from ..projections.store import ViewStore, views_of
from ..domain.text import check_json, encode_error
from .feed import LogFeed
from .mapper import OrjsonTranscoder, PydanticMapper
from .sealing import unreadable
from .storage import redact, secrets, settings

if TYPE_CHECKING:
    from ..projections.characters import Characters
    from ..projections.index import Index

SCHEMA_LOCK = 0x6368726F6E69636C  # "chronicl": the advisory lock key for creating tables


class Chronicle(Application):
    name = "chronicle"

    def construct_mapper(self) -> Any:
        return self.factory.mapper(transcoder=CheckedTranscoder(), mapper_class=PydanticMapper)

    @cached_property
    def views(self) -> ViewStore:
        return views_of(self)

    @cached_property
    def feed(self) -> LogFeed:
        """The log as the read models are fed it."""
        return LogFeed(self, self.views)

    @cached_property
    def index(self) -> Index:
        from ..projections.index import Index  # lazily: it loads the domain's models (a `show` does not need them)

        return Index(self.views, self.feed)

    @cached_property
    def characters(self) -> Characters:
        from ..projections.characters import Characters  # lazily: `chronicle --help` needs no read model

        return Characters(self.views, self.feed)


class CheckedTranscoder(OrjsonTranscoder):
    """Every event and snapshot is checked as it is encoded to be stored: no control character or
    lone surrogate in any of its texts (domain/text.py)."""

    def encode(self, obj: Any) -> bytes:
        try:
            data = super().encode(obj)
        except TypeError as error:  # orjson: "str is not valid UTF-8: surrogates not allowed"
            raise encode_error(error) from None
        check_json(data)
        return data


def open_ledger(target: str, synced: bool = True, create: bool = True) -> Chronicle:
    """Open (creating if needed) the ledger at a SQLite path or PostgreSQL URL. Unless `synced`,
    SQLite commits do not wait for the disk (for writes a later synced commit puts in place).
    Unless `create`, a SQLite file that does not exist is bad input (for commands that only read)."""
    env = settings(target, create)
    if not synced:
        env["SQLITE_SYNCHRONOUS"] = "NORMAL"
    try:
        if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
            with _schema_lock(env, target):
                app = Chronicle(env=env)
        else:
            app = Chronicle(env=env)
    except BadInput:
        raise
    except Exception as error:  # the library raises driver-specific errors: one clear line each
        raise BadInput(f"cannot open {redact(target)}: {_reason(error, target)}") from None
    _check_readable(app, target)
    app.recorder.decode, app.recorder.encrypting = app.mapper.decode_state, app.mapper.cipher is not None
    return app


def _check_readable(app: Chronicle, target: str) -> None:
    """Decode the first stored event: a missing or wrong CHRONICLE_CIPHER_KEY is one clear error
    here, instead of garbage or a decoding fault somewhere later."""
    first = app.recorder.select_notifications(start=1, limit=1)
    if not first:
        return
    try:
        app.mapper.decode_state(first[0].state)
    except Exception:
        app.close()
        raise BadInput(f"cannot read {redact(target)}: {unreadable(app.mapper.cipher is not None)}") from None


def _reason(error: BaseException, target: str) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return hide_password(text, target)


def hide_password(text: str, target: str) -> str:
    for secret in sorted(secrets(target), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


@contextmanager
def _schema_lock(env: dict[str, str], target: str) -> Iterator[None]:
    """Connect once directly, so an unreachable server or a missing database gets its real reason;
    and hold a PostgreSQL advisory lock while the library creates or replaces its tables and
    functions, which concurrent sessions cannot do at once ("tuple concurrently updated")."""
    import psycopg

    try:
        connection = psycopg.connect(
            dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
            user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"] or None, connect_timeout=3,
            autocommit=True,
        )
    except psycopg.Error as error:
        raise BadInput(f"cannot open {redact(target)}: {_reason(error, target)}") from None
    with connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        yield
