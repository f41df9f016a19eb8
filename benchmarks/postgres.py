"""The PostgreSQL tier of `python -m benchmarks --postgres URL`: the bulk and interactive commands on
a server, against the library's own save and log read on the same server.

URL is any database of the server the benchmark may connect to; the tier makes databases of its
own there (CREATE DATABASE needs the privilege) and drops them at the end.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from . import baselines, frontdoors
from .measure import cli, latency, row


@contextlib.contextmanager
def databases(server: str, names: list[str]) -> Iterator[dict[str, str]]:
    """A fresh database per name on the server, as URLs; dropped afterwards."""
    import psycopg

    made = {name: f"chronicle_bench_{name}_{os.getpid()}" for name in names}
    with psycopg.connect(server, autocommit=True) as connection:
        for database in made.values():
            connection.execute(f'CREATE DATABASE "{database}"')
    try:
        yield {name: f"{server.rsplit('/', 1)[0]}/{database}" for name, database in made.items()}
    finally:
        with psycopg.connect(server, autocommit=True) as connection:
            for database in made.values():
                connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def tier(server: str, work: Path, n100k: int, n1m: int) -> None:
    """Uses the ledgers the SQLite tiers generated in `work` (100k.jsonl, 10k.jsonl, 1m.jsonl)."""
    with databases(server, ["raw", "100k", "10k", "1m"]) as url:
        raw_save = baselines.library_save(url["raw"], 100_000)
        raw_read = baselines.library_read(url["raw"])
        row("PostgreSQL baseline: eventsourcing batched save", f"{raw_save:,.0f} events/s")
        row("PostgreSQL baseline: eventsourcing log read + decode", f"{raw_read:,.0f} events/s")
        seconds, rss, _ = cli(url["100k"], "import", str(work / "100k.jsonl"))
        row(
            "PostgreSQL: import 100k",
            f"{n100k / seconds:,.0f} events/s, {rss} MB",
            f"{n100k / seconds / raw_save:.2f}x raw save",
        )
        seconds, rss, _ = cli(url["100k"], "--json", "rebuild")
        row(
            "PostgreSQL: rebuild 100k",
            f"{n100k / seconds:,.0f} events/s, {rss} MB",
            f"{n100k / seconds / raw_read:.2f}x raw read",
        )
        seconds, rss, _ = cli(url["100k"], "--json", "verify")
        row("PostgreSQL: verify 100k", f"{n100k / seconds:,.0f} events/s, {rss} MB")
        cli(url["10k"], "import", str(work / "10k.jsonl"))
        cli(url["10k"], "--json", "character", "list")
        show_10k, rss_10k, _ = latency(url["10k"], "character", "show", "C0007")
        row("PostgreSQL: character show at 10k", f"{show_10k * 1000:.0f} ms, {rss_10k} MB")
        seconds, rss, _ = cli(url["1m"], "import", str(work / "1m.jsonl"))
        row(
            "PostgreSQL: import 1M",
            f"{n1m / seconds:,.0f} events/s, {rss} MB",
            f"{n1m / seconds / raw_save:.2f}x raw save",
        )
        seconds, rss, _ = cli(url["1m"], "--json", "rebuild")
        row(
            "PostgreSQL: rebuild 1M",
            f"{n1m / seconds:,.0f} events/s, {rss} MB",
            f"{n1m / seconds / raw_read:.2f}x raw read",
        )
        show_1m, rss_1m, _ = latency(url["1m"], "character", "show", "C0007")
        row(
            "PostgreSQL: character show at 1M",
            f"{show_1m * 1000:.0f} ms, {rss_1m} MB",
            f"{show_1m / show_10k:.2f}x at 10k",
        )
        seconds, rss, _ = latency(url["1m"], "log", "C0007", "--tail", "20")
        row("PostgreSQL: log C0007 --tail 20 at 1M", f"{seconds * 1000:.0f} ms, {rss} MB")
        # writes through `serve --writes` over HTTP (benchmarks/frontdoors.py), last: they add to both ledgers
        frontdoors.over_http(url["10k"], work, "PostgreSQL 10k")
        frontdoors.over_http(url["1m"], work, "PostgreSQL 1M")
