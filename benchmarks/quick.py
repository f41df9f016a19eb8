"""`python -m benchmarks --quick`: every goal row at the 10k size, one run of each, in a few minutes (a
developer's loop; benchmarks/README.md has the goals). The same measurements as the full run (`run.py`),
smaller: 10,000 events, batches of 2,000 lines (10,000 for memory), 10,000 signed events, 60 writes in
process and 100 over HTTP, 10,000 writes through one server, 10 seconds of load. Its ratios are as good as
one run's on a shared machine; the full run's medians are the numbers to quote."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import tempfile
import time
from pathlib import Path

from . import baselines, costs, crypto, documents, fair_dice, frontdoors, proofs, serve_memory, users
from .generate import ledger
from .measure import bare_import, cli, copy, markdown, row, warm

EVENTS = 10_000
LINES = 2_000
MIXED = ("roll d20 --for {} --reason bench", "injure {} --damage 3 --mode lethal", "roll 2d6+1 --for {}")


def quick(options: argparse.Namespace) -> None:
    begun = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="chronicle-quick-"))
    print(f"working in {work} (quick: every goal row at {EVENTS:,} events, one run each)\n", flush=True)
    os.environ["CHRONICLE_HOME"] = str(work / "home")
    warm(work)
    users.RUNS = documents.RUNS = documents.VERIFY_RUNS = 1
    frontdoors.HTTP_WRITES, frontdoors.HTTP_WARM, frontdoors.SHELL_LINES = 100, 20, 100
    fair_dice.APPENDS = 100

    events = ledger(work / "10k.jsonl", EVENTS, characters=1000, name="Small", seed=3)
    raw_save = baselines.library_save(work / "raw.db", EVENTS)
    raw_read = baselines.library_read(work / "raw.db")
    bare = bare_import()
    row("baseline: eventsourcing batched save (1,000 aggregates)", f"{raw_save:,.0f} events/s")
    row("baseline: eventsourcing log read + decode", f"{raw_read:,.0f} events/s")
    row("baseline: python -c 'import click, pydantic, eventsourcing.application'", f"{bare * 1000:.0f} ms")

    db = work / "10k.db"
    seconds, rss, _ = cli(db, "import", str(work / "10k.jsonl"))
    row("import 10k", f"{events / seconds:,.0f} events/s, {rss} MB", f"{events / seconds / raw_save:.2f}x raw save")
    seconds, rss, _ = cli(copy(db, work / "rebuilt.db"), "--json", "rebuild")
    rate = events / seconds
    row("rebuild 10k (index + characters)", f"{rate:,.0f} events/s, {rss} MB", f"{rate / raw_read:.2f}x raw read")

    # goal 1: batches -------------------------------------------------------------------------
    scripts = {
        "free rolls": [shlex.split(f"roll d20 --for C{i % 1000:04d} --reason bench") for i in range(LINES)],
        "mixed: rolls, injuries": [shlex.split(MIXED[i % 3].format(f"C{i % 1000:04d}")) for i in range(LINES)],
    }
    users.batch_rates(db, work, scripts)
    documents.batch_documents(db, work, lines=1_000, runs=1)  # (the 10k ledger has its dead by line 1,056)
    users.batch_memory(copy(db, work / "batch-m.db"), work, EVENTS, MIXED[0], "free rolls")

    # goal 2: a write's cost and its time over HTTP -------------------------------------------
    costs.measure(str(work / "costs.db"), "SQLite", writes=60)
    frontdoors.sqlite_over_http(work, {"10k": db})

    # goal 3: verify and import of signed events ----------------------------------------------
    documents.signed_import(work, EVENTS, runs=1)
    crypto.measure()

    # goal 5: held ------------------------------------------------------------------------------
    users.help_row(work, bare)
    users.start_up(db, "10k")
    proofs.measure(work, leaves=EVENTS)
    fair_dice.measure([(str(work / "fair-0.db"), str(work / "old-0.db"))], "SQLite")
    serve_memory.measure(work, EVENTS)

    if options.postgres:  # goals 2 and 4 on PostgreSQL, shortly
        from . import load
        from .postgres import databases

        with databases(options.postgres, ["costs"]) as url:
            costs.measure(url["costs"], "PostgreSQL", writes=60)
        load.tables(options.postgres, work, 10.0)
    row("total benchmark time (quick)", f"{time.perf_counter() - begun:.0f} s", "goal < 300 s")
    print("\n" + markdown())
    if not options.keep:
        shutil.rmtree(work)
