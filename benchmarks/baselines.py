"""What chronicle is measured against, in the same run: the raw library, raw sqlite3, bare Click."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class Tally(Aggregate):
    @event("Started")
    def __init__(self, name: str) -> None:
        self.name, self.total = name, 0

    @event("Counted")
    def count(self, amount: int, note: str) -> None:
        self.total += amount


def library(target: Path | str) -> Application[Any]:
    """The plain library application on a SQLite file or a PostgreSQL URL (its own default mapper)."""
    if isinstance(target, Path):
        return Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(target)})
    from chronicle.ledger.store.targets import settings

    return Application(env=settings(target))


def library_save(target: Path | str, events: int, aggregates: int = 1000, batch: int = 100) -> float:
    """Events per second through `save` of plain library events, `batch` events per aggregate per save."""
    app = library(target)
    tallies = [Tally(f"t{i}") for i in range(aggregates)]
    started = time.perf_counter()
    app.save(*tallies)
    written = aggregates
    while written < events:
        for tally in tallies:
            for _ in range(batch):
                tally.count(3, "a note of ordinary length for a tabletop event")
            written += batch
            app.save(tally)
            if written >= events:
                break
    rate = written / (time.perf_counter() - started)
    app.close()
    return rate


def library_read(target: Path | str) -> float:
    """Notifications per second: reading and decoding the library's own log."""
    app = library(target)
    started, start, count = time.perf_counter(), 0, 0
    while True:
        page = app.recorder.select_notifications(start=start, limit=20000, inclusive_of_start=False)
        if not page:
            break
        for notification in page:
            app.mapper.to_domain_event(notification)
        count, start = count + len(page), page[-1].id
    rate = count / (time.perf_counter() - started)
    app.close()
    return rate


def sqlite_executemany(path: Path, lines: Path) -> float:
    """Rows per second: raw `executemany` of the export's lines into a table like the library's."""
    connection = sqlite3.connect(path)
    connection.execute(
        "CREATE TABLE events (originator_id TEXT, originator_version INTEGER, topic TEXT, state BLOB,"
        " PRIMARY KEY (originator_id, originator_version))"
    )
    import orjson

    started, count = time.perf_counter(), 0
    with lines.open("rb") as source, connection:
        chunk = []
        for line in source:
            record = orjson.loads(line)
            if "closing" in record:  # the export's closing line: no event
                continue
            chunk.append(
                (record["originator_id"], record["originator_version"], record["topic"], orjson.dumps(record["state"]))
            )
            if len(chunk) == 20000:
                connection.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", chunk)
                count, chunk = count + len(chunk), []
        connection.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", chunk)
        count += len(chunk)
    connection.close()
    return count / (time.perf_counter() - started)


def click_parse(script: list[list[str]]) -> float:
    """Command lines per second: Click parsing the batch's lines into commands that do nothing."""
    import click

    @click.group()
    def root() -> None:
        pass

    for name in ("roll", "injure", "rest"):

        @root.command(name)
        @click.argument("args", nargs=-1)
        @click.option("--for", "for_")
        @click.option("--damage", type=int)
        @click.option("--mode")
        @click.option("--hours", type=int)
        @click.option("--reason")
        def noop(**_: Any) -> None:
            pass

    started = time.perf_counter()
    for args in script:
        command = root.get_command(None, args[0])  # type: ignore[arg-type]
        assert command is not None
        with command.make_context(args[0], args[1:]) as ctx:
            command.invoke(ctx)
    return len(script) / (time.perf_counter() - started)
