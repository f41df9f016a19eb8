"""What one write through the table's front door costs, in-process (docs/scale.md's numbers): the server's
own path (`Writer.execute` of `serve --writes`: the signature checked, the document decided as its
participant, the nonce spent, the Merkle tree grown, in one transaction) for WRITES signed documents of 12
players of one Potestas campaign (an injury, then a rest, and again), after WARM writes:

- wall and CPU milliseconds per write (this process's CPU; on PostgreSQL the server's own is not in it);
- SQL statements per write (every statement of every connection: a trace on SQLite, psycopg's cursors on
  PostgreSQL), and transactions;
- bytes stored per event, by table (the growth of each table and its indexes over the measured writes:
  SQLite's dbstat, PostgreSQL's pg_total_relation_size), and the stored event's own JSON with the part
  its signature takes (document, nonce, key and signature).

`python -m benchmarks.costs [--postgres URL] [--writes 300]`: SQLite, and PostgreSQL on a fresh database
of that server (dropped after); `python -m benchmarks` runs it with the tiers it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from .measure import row

WRITES = 300
WARM = 60
PLAYERS = 12
KINDS = {
    "SELECT": "reads",
    "WITH": "reads",
    "INSERT": "writes",
    "UPDATE": "writes",
    "DELETE": "writes",
    "COPY": "writes",
}
KINDS |= {
    "LOCK": "table locks (with their SET LOCAL lock_timeout)",
    "SET": "table locks (with their SET LOCAL lock_timeout)",
}
KINDS |= {word: "transaction control" for word in ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")}


@contextlib.contextmanager
def counted_statements(postgres: bool) -> Iterator[list[str]]:
    """Every SQL statement sent from here on, by any connection opened or used in this process."""
    statements: list[str] = []
    if not postgres:
        from chronicle.ledger.store import sqlite as durable_sqlite

        create = durable_sqlite.DurablePool._create_connection

        def traced(pool: Any) -> Any:
            connection = create(pool)
            connection._sqlite_conn.set_trace_callback(statements.append)
            return connection

        setattr(durable_sqlite.DurablePool, "_create_connection", traced)  # noqa: B010 - patched, then put back
        try:
            yield statements
        finally:
            setattr(durable_sqlite.DurablePool, "_create_connection", create)  # noqa: B010
        return
    import psycopg

    execute, executemany, copy = psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.Cursor.copy
    command = psycopg.Connection._exec_command  # BEGIN, COMMIT, SAVEPOINT, RELEASE: psycopg's own commands

    def counted_command(self: Any, sent: Any, *args: Any, **kwargs: Any) -> Any:
        statements.append(sent.decode() if isinstance(sent, bytes) else str(sent))
        return (yield from command(self, sent, *args, **kwargs))

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        statements.append(query if isinstance(query, str) else query.as_string(self.connection))
        return execute(self, query, *args, **kwargs)

    def counted_many(self: Any, query: Any, params: Any, *args: Any, **kwargs: Any) -> Any:
        params = list(params)
        statements.extend([str(query)] * len(params))  # one statement per row, as the server sees them
        return executemany(self, query, params, *args, **kwargs)

    def counted_copy(self: Any, statement: Any, *args: Any, **kwargs: Any) -> Any:
        statements.append(str(statement))
        return copy(self, statement, *args, **kwargs)

    patched = {
        (psycopg.Cursor, "execute"): counted_execute,
        (psycopg.Cursor, "executemany"): counted_many,
        (psycopg.Cursor, "copy"): counted_copy,
        (psycopg.Connection, "_exec_command"): counted_command,
    }
    before = {place: getattr(*place) for place in patched}
    for (owner, name), counting in patched.items():
        setattr(owner, name, counting)
    try:
        yield statements
    finally:
        for (owner, name), original in before.items():
            setattr(owner, name, original)


def sizes(target: str) -> dict[str, int]:
    """Bytes each table holds, its indexes (and PostgreSQL's TOAST) included."""
    from chronicle.ledger.store.targets import is_postgres

    if is_postgres(target):
        import psycopg

        with psycopg.connect(target) as connection:
            found = connection.execute(
                "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n"
                " ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN"
                " ('pg_catalog', 'information_schema')"
            ).fetchall()
        return {name: size for name, size in found}
    import sqlite3

    database = sqlite3.connect(target)
    try:
        owner: dict[str, str] = dict(
            database.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")
        )
        tables: dict[str, int] = {}
        for name, size in database.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            table = owner.get(name, name)
            tables[table] = tables.get(table, 0) + size
        return tables
    finally:
        database.close()


def measure(target: str, label: str, writes: int = WRITES) -> None:
    from chronicle.cli.web.writes import Asked, Writer
    from chronicle.ledger.store.chronicle import open_ledger
    from chronicle.ledger.store.targets import is_postgres
    from chronicle.ledger.trust.signing import sign

    from .load import prepare

    postgres = is_postgres(target)
    team, _ = prepare(target, 1, PLAYERS, 1)
    asked = []
    for n in range(WARM + writes):
        player = team[n % PLAYERS]
        campaign, character = player.parts[0]
        document = (
            {"command": "injure", "name": character, "damage": 3, "save_roll": 15}
            if (n // PLAYERS) % 2 == 0
            else {"command": "rest", "name": character, "hours": 24}
        )
        asked.append(Asked(document, sign(player.key, campaign, document, f"cost-{n}"), campaign))
    with counted_statements(postgres) as statements:
        writer = Writer(target, print)
        try:
            for one in asked[:WARM]:
                writer.execute(one)
            before = sizes(target)
            statements.clear()
            walls, cpus = [], []
            for one in asked[WARM:]:
                wall, cpu = time.perf_counter(), time.process_time()
                writer.execute(one)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
            sent = list(statements)
        finally:
            writer.close()
    after = sizes(target)
    app = open_ledger(target)
    try:
        newest = app.recorder.max_notification_id() or 0
        stored = app.recorder.select_notifications(start=newest - writes, limit=writes, inclusive_of_start=False)
    finally:
        app.close()
    states = [bytes(n.state) for n in stored]
    signed = [len(orjson.dumps(orjson.loads(s).get("signed"))) for s in states]
    kinds: dict[str, int] = {}
    for statement in sent:
        word = statement.split(None, 1)[0].upper() if statement.strip() else ""
        kind = KINDS.get(word, "other")
        kinds[kind] = kinds.get(kind, 0) + 1
    row(
        f"{label}: a signed write in-process (Writer.execute), wall / CPU",
        f"median {statistics.median(walls) * 1000:.1f} / {statistics.median(cpus) * 1000:.1f} ms,"
        f" mean {statistics.mean(walls) * 1000:.1f} / {statistics.mean(cpus) * 1000:.1f} ms",
    )
    row(
        f"{label}: SQL statements per write",
        f"{len(sent) / writes:.1f}",
        ", ".join(f"{kind} {count / writes:.1f}" for kind, count in sorted(kinds.items(), key=lambda i: -i[1])),
    )
    grown = {name: after.get(name, 0) - before.get(name, 0) for name in after}
    total = sum(grown.values())
    row(
        f"{label}: bytes stored per event (all tables and indexes)",
        f"{total / writes:,.0f} B",
        ", ".join(f"{name} {size / writes:,.0f}" for name, size in sorted(grown.items(), key=lambda i: -i[1]) if size),
    )
    row(
        f"{label}: an event's stored JSON, of it the signature's part",
        f"{statistics.mean(len(s) for s in states):,.0f} B, {statistics.mean(signed):,.0f} B",
        "(document, nonce, key, signature)",
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.costs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL", default=os.environ.get("CHRONICLE_TEST_POSTGRES"))
    parser.add_argument("--writes", type=int, default=WRITES)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chronicle-costs-") as folder:
        os.environ["CHRONICLE_HOME"] = str(Path(folder) / "home")
        measure(str(Path(folder) / "costs.db"), "SQLite", options.writes)
        if options.postgres:
            from .postgres import databases

            with databases(options.postgres, ["costs"]) as url:
                measure(url["costs"], "PostgreSQL", options.writes)


if __name__ == "__main__":
    main()
