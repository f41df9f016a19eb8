"""The events table's tripwire: chronicle only ever inserts events, so a row removed or rewritten there was
changed behind its back. A trigger notes each such row's position (`chronicle_changed_events`), and every write
that finds a noted position within the last checkpoint its user saw is refused, in a few rows' reads, however
long the log (ledger/trust/witness.py).

It catches an edit made with plain SQL, not one made by whoever also removes the trigger first and puts it back
after: each check finds the trigger in place (or makes it, and then compares the whole campaign with its stored
tree once, as `verify` does), and `verify`, which reads everything, names any change whatever became of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from ..store.tables import EVENTS_TRIGGER

if TYPE_CHECKING:
    from ..store.chronicle import Chronicle

CHANGED = "chronicle_changed_events"
TRIGGER = EVENTS_TRIGGER
FUNCTION = "chronicle_note_changed_event"
LOCK = 0x7472697077697265  # "tripwire": PostgreSQL's advisory lock for making it


def armed(app: Chronicle) -> bool:
    """Whether the trigger is in place (checked once per process per ledger, then trusted for its life)."""
    if app.__dict__.get("_chronicle_tripwire"):
        return True
    views = app.views
    if views.postgres:
        found = views.query("SELECT 1 FROM pg_trigger WHERE tgname = ? AND NOT tgisinternal", (TRIGGER,))
    else:
        found = views.query("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", (TRIGGER,))
    app.__dict__["_chronicle_tripwire"] = bool(found)
    return bool(found)


def arm(app: Chronicle) -> None:
    """Make the table and the trigger (in their own transaction)."""
    views = app.views
    table, at = views.events
    with views.transaction() as cursor:
        if views.postgres:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {CHANGED} (position BIGINT NOT NULL, change TEXT NOT NULL)")
            cursor.execute(
                f"CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                f" IF TG_OP = 'TRUNCATE' THEN INSERT INTO {CHANGED} VALUES (0, 'removed');"
                f" ELSIF TG_OP = 'DELETE' THEN INSERT INTO {CHANGED} VALUES (OLD.{at}, 'removed');"
                f" ELSE INSERT INTO {CHANGED} VALUES (OLD.{at}, 'rewritten'); END IF; RETURN NULL; END $$"
            )
            cursor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER} ON {table}")
            cursor.execute(
                f"CREATE TRIGGER {TRIGGER} AFTER DELETE OR UPDATE ON {table} FOR EACH ROW EXECUTE FUNCTION {FUNCTION}()"
            )
            cursor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}_all ON {table}")
            cursor.execute(
                f"CREATE TRIGGER {TRIGGER}_all AFTER TRUNCATE ON {table} FOR EACH STATEMENT EXECUTE FUNCTION"
                f" {FUNCTION}()"
            )
        else:
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {CHANGED} (position INTEGER NOT NULL, change TEXT NOT NULL)")
            cursor.execute(
                f"CREATE TRIGGER IF NOT EXISTS {TRIGGER} AFTER DELETE ON {table} BEGIN"
                f" INSERT INTO {CHANGED} VALUES (old.rowid, 'removed'); END"
            )
            cursor.execute(
                f"CREATE TRIGGER IF NOT EXISTS {TRIGGER}_rewritten AFTER UPDATE ON {table} BEGIN"
                f" INSERT INTO {CHANGED} VALUES (old.rowid, 'rewritten'); END"
            )
    app.__dict__["_chronicle_tripwire"] = True


def changed(app: Chronicle, campaign: UUID, up_to: int) -> tuple[int, str] | None:
    """The first position of CAMPAIGN's events at or before UP_TO whose row was removed or rewritten, and how
    (the index still lists a removed row's position); None if none (the tripwire is `armed`)."""
    rows: list[Any] = app.views.query(
        f"SELECT c.position, c.change FROM {CHANGED} c WHERE c.position <= ? AND (c.position = 0 OR EXISTS"
        " (SELECT 1 FROM chronicle_log l WHERE l.position = c.position AND l.campaign ="
        " (SELECT position FROM chronicle_campaigns WHERE id = ?))) ORDER BY c.position LIMIT 1",
        (up_to, str(campaign)),
    )
    return (int(rows[0][0]), str(rows[0][1])) if rows else None
