"""Being told of appends on PostgreSQL (live pages): an AFTER INSERT statement trigger on the library's
events table NOTIFYs `chronicle_appended` (made once, idempotently, under the ledger's schema lock as the
library's own tables are; writers need nothing new), and a listener LISTENs on a connection of its own.
SQLite has no way to wake another process: its readers poll the log's end instead."""

from __future__ import annotations

from collections.abc import AsyncIterator

from .chronicle import SCHEMA_LOCK, Chronicle
from .targets import connection

CHANNEL = "chronicle_appended"
TRIGGER = "chronicle_notify_appended"


def notify_appends(target: str) -> None:
    """Make the NOTIFY trigger on the events table of the ledger at TARGET, unless it is there (a role
    without the right raises the driver's error)."""
    import psycopg

    table = f"{Chronicle.name}_events"
    with psycopg.connect(**connection(target), autocommit=True) as connected:
        found = connected.execute(
            "SELECT 1 FROM pg_trigger WHERE tgname = %s AND tgrelid = %s::regclass", (TRIGGER, table)
        ).fetchone()
        if found:
            return
        connected.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        with connected.transaction():
            connected.execute(
                f"CREATE OR REPLACE FUNCTION {TRIGGER}() RETURNS trigger LANGUAGE plpgsql"
                f" AS $$ BEGIN PERFORM pg_notify('{CHANNEL}', ''); RETURN NULL; END $$"
            )
            connected.execute(
                f"CREATE OR REPLACE TRIGGER {TRIGGER} AFTER INSERT ON {table}"
                f" FOR EACH STATEMENT EXECUTE FUNCTION {TRIGGER}()"
            )
        connected.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))


async def appends(target: str, recheck: float) -> AsyncIterator[None]:
    """Once on connecting (whatever was appended meanwhile), then once per notification of an append, or
    after RECHECK seconds without one (a notification may be missed); the driver's error when the server
    goes away."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(**connection(target), autocommit=True) as connected:
        await connected.execute(f"LISTEN {CHANNEL}")
        yield
        while True:
            async for _ in connected.notifies(timeout=recheck, stop_after=1):
                pass
            yield
