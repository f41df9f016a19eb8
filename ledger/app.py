"""The chronicle application: the library's `Application` with pydantic events, plus the index."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from eventsourcing.application import Application

from ..domain.errors import BadInput
from ..projections.index import Index
from ..projections.store import ViewStore
from .mapper import OrjsonTranscoder, PydanticMapper
from .storage import redact, settings


class Chronicle(Application):
    name = "chronicle"

    def construct_mapper(self) -> Any:
        return self.factory.mapper(transcoder=OrjsonTranscoder(), mapper_class=PydanticMapper)

    @cached_property
    def views(self) -> ViewStore:
        return ViewStore(self)

    @cached_property
    def index(self) -> Index:
        return Index(self.views)


def open_ledger(target: str) -> Chronicle:
    """Open (creating if needed) the ledger at a SQLite path or PostgreSQL URL."""
    env = settings(target)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        _check_reachable(env, target)
    try:
        return Chronicle(env=env)
    except Exception as error:  # the library raises driver-specific errors: one clear line each
        raise BadInput(f"cannot open {redact(target)}: {_reason(error, target)}") from None


def _reason(error: BaseException, target: str) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    password = env_password(target)
    return text.replace(password, "***") if password else text


def env_password(target: str) -> str:
    from urllib.parse import urlsplit

    try:
        return urlsplit(target).password or ""
    except ValueError:
        return ""


def _check_reachable(env: dict[str, str], target: str) -> None:
    """Connect once directly, so an unreachable server or missing database gets its real reason."""
    import psycopg

    try:
        psycopg.connect(
            dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
            user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"] or None, connect_timeout=3,
        ).close()
    except psycopg.Error as error:
        raise BadInput(f"cannot open {redact(target)}: {_reason(error, target)}") from None
