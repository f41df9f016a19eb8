"""The chronicle application: the library's `Application` with pydantic events, plus the index."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from typing import Any

from eventsourcing.application import Application

from ..domain.errors import BadInput
from ..projections.store import ViewStore
from .mapper import OrjsonTranscoder, PydanticMapper
from .storage import redact, settings


SCHEMA_LOCK = 0x6368726F6E69636C  # "chronicl": the advisory lock key for creating tables


class Chronicle(Application):
    name = "chronicle"

    def construct_mapper(self) -> Any:
        return self.factory.mapper(transcoder=OrjsonTranscoder(), mapper_class=PydanticMapper)

    @cached_property
    def views(self) -> ViewStore:
        return ViewStore(self)

    @cached_property
    def index(self) -> Any:
        from ..projections.index import Index  # lazily: it loads the domain's models (a `show` does not need them)

        return Index(self.views)

    @cached_property
    def characters(self) -> Any:
        from ..projections.characters import Characters

        return Characters(self.views)


def open_ledger(target: str, synced: bool = True) -> Chronicle:
    """Open (creating if needed) the ledger at a SQLite path or PostgreSQL URL. Unless `synced`,
    SQLite commits do not wait for the disk (for writes a later synced commit puts in place)."""
    env = settings(target)
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
        if app.mapper.cipher is None:
            problem = "its events are encrypted (or damaged): set CHRONICLE_CIPHER_KEY to the ledger's key"
        else:
            problem = "its events do not decrypt with CHRONICLE_CIPHER_KEY: a wrong key, or an unencrypted ledger"
        raise BadInput(f"cannot read {redact(target)}: {problem}") from None


def _reason(error: BaseException, target: str) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return hide_password(text, target)


def hide_password(text: str, target: str) -> str:
    from urllib.parse import unquote

    password = env_password(target)
    for secret in {password, unquote(password)} - {""}:
        text = text.replace(secret, "***")
    return text


def env_password(target: str) -> str:
    from urllib.parse import urlsplit

    try:
        return urlsplit(target).password or ""
    except ValueError:
        return ""


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
