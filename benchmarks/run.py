"""`python -m benchmarks`: chronicle against its baselines, measured in one run on this machine, the
way users run it (benchmarks/README.md has the method and the latest table).

Tiers: 10k events and 100k events over 1,000 characters (generated through the domain, imported with
full verification), and 1M events over 1,000 characters in one campaign (a generated campaign of 100
characters widened ten times at the JSON level: new names, ids, hashes and chains; imported with full
verification too). The 100k import, rebuild and batches (each batch on a copy of the same ledger) and
their baselines are each the median of RUNS runs, the import and the rebuild taking turns with their
library baseline (save, import, save, import, ...), so that a drift in the machine's speed moves both
sides of a ratio alike. Every chronicle command is its own process, without `--campaign` (each ledger
holds one campaign); its peak RSS is that process's.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import baselines, costs, crypto, documents, fair_dice, frontdoors, load, proofs, serve_memory, signing, users
from .generate import ledger, widen
from .measure import RUNS, bare_import, cli, copy, floor_import, latency, markdown, row, warm

MIXED = ("roll d20 --for {} --reason bench", "injure {} --damage 3 --mode lethal", "rest {} --hours 8")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--postgres", metavar="URL", help="also measure on this PostgreSQL server (it needs CREATE DATABASE)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the working folder (some 3 GB of ledgers) afterwards")
    parser.add_argument(
        "--no-million-lines", action="store_true", help="skip the 1,000,000-line batch (some 2 minutes)"
    )
    parser.add_argument("--load-seconds", type=float, default=60.0, help="the load tests' measured period (default 60)")
    parser.add_argument(
        "--signed-events", type=int, default=100_000, help="events of the signed export imported (default 100,000)"
    )
    parser.add_argument(
        "--serve-writes",
        type=int,
        default=100_000,
        help="signed writes through one `serve --writes` whose memory is read (default 100,000, some 10 minutes;"
        " 0 skips it)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="every goal row at the 10k size, one run each, in a few minutes"
    )
    options = parser.parse_args()
    if options.quick:
        from .quick import quick

        quick(options)
        return
    begun = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="chronicle-bench-"))
    print(f"working in {work}\n", flush=True)
    os.environ["CHRONICLE_HOME"] = str(work / "home")  # the identity and checkpoints of every process: not the user's
    warm(work)

    # generation -------------------------------------------------------------------------
    started = time.perf_counter()
    n100k = ledger(work / "100k.jsonl", 100_000, characters=1000)
    row("generate 100k events (domain, hash-chained)", f"{n100k / (time.perf_counter() - started):,.0f} events/s")
    ledger(work / "template.jsonl", 100_000, characters=100, name="Template", seed=2)
    n1m = widen(work / "template.jsonl", work / "1m.jsonl", "Bench", 10)
    ledger(work / "10k.jsonl", 10_000, characters=1000, name="Small", seed=3)

    # baselines, the library's taking turns with chronicle's runs against it ---------------
    saves, imports, firsts = [], [], []
    for i in range(RUNS):
        saves.append(baselines.library_save(work / f"raw-{i}.db", 100_000))
        imports.append(cli(work / f"100k-{i}.db", "import", str(work / "100k.jsonl")))
        firsts.append(cli(work / f"100k-{i}.db", "character", "show", "C0007")[0])  # the first command after it
    reads, rebuilds = [], []
    for i in range(RUNS):  # each rebuild on its own import
        reads.append(baselines.library_read(work / "raw-0.db"))
        rebuilds.append(cli(work / f"100k-{i}.db", "--json", "rebuild"))
    raw_save, raw_read = statistics.median(saves), statistics.median(reads)
    raw_many = baselines.sqlite_executemany(work / "many.db", work / "100k.jsonl")
    scripts = {
        "free rolls": [shlex.split(f"roll d20 --for C{i % 1000:04d} --reason bench") for i in range(20000)],
        "mixed: rolls, injuries, rests": [shlex.split(MIXED[i % 3].format(f"C{i % 1000:04d}")) for i in range(20000)],
    }
    bare, floor = bare_import(), floor_import()
    row("baseline: eventsourcing batched save (1,000 aggregates)", f"{raw_save:,.0f} events/s")
    row("baseline: eventsourcing log read + decode", f"{raw_read:,.0f} events/s")
    row("baseline: sqlite3 executemany", f"{raw_many:,.0f} rows/s")
    row("baseline: python -c 'import click, pydantic, eventsourcing.application'", f"{bare * 1000:.0f} ms")
    row(
        "baseline (the floor): the same, one pydantic model defined",
        f"{floor * 1000:.0f} ms",
        f"{floor / bare:.2f}x bare",
    )

    # 100k tier --------------------------------------------------------------------------
    db = work / f"100k-{RUNS - 1}.db"
    seconds, rss = statistics.median(run[0] for run in imports), max(run[1] for run in imports)
    rate = n100k / seconds
    row(
        "import 100k (verify, bulk insert, read models)",
        f"{rate:,.0f} events/s, {rss} MB",
        f"{rate / raw_save:.2f}x raw save (goal >= 1.0), {rate / raw_many:.2f}x executemany (stretch 0.3)",
    )
    first = statistics.median(firsts)
    row(
        "character show, the first command after import 100k",
        f"{first * 1000:.0f} ms",
        f"{first / bare:.2f}x bare import",
    )
    seconds, rss = statistics.median(run[0] for run in rebuilds), max(run[1] for run in rebuilds)
    rate = n100k / seconds
    row(
        "rebuild 100k (index + characters)",
        f"{rate:,.0f} events/s, {rss} MB",
        f"{rate / raw_read:.2f}x raw read (goal >= 0.6)",
    )
    seconds, rss, _ = cli(db, "--json", "verify")
    row("verify 100k", f"{n100k / seconds:,.0f} events/s, {rss} MB")
    seconds, rss, _ = cli(db, "export", "--output", str(work / "again.jsonl"))
    row("export 100k", f"{n100k / seconds:,.0f} events/s, {rss} MB")
    users.batch_rates(db, work, scripts)
    documents.batch_documents(db, work)
    users.batch_memory(copy(db, work / "batch-m.db"), work, 100_000, MIXED[1], "injuries")
    if not options.no_million_lines:
        users.batch_memory(copy(db, work / "batch-m.db"), work, 1_000_000, MIXED[0], "free rolls")

    # start-up, as users run the commands ---------------------------------------------------
    users.help_row(work, bare)
    small = work / "10k.db"
    cli(small, "import", str(work / "10k.jsonl"))
    users.start_up(small, "10k")

    # a character with 100k events: appending to it against a new one; its log for people ----
    long = work / "long.db"
    ledger(work / "long.jsonl", 100_000, characters=1, name="Long", seed=4)
    cli(long, "import", str(work / "long.jsonl"))
    cli(long, "character", "add", "Fresh", "--stat", "hp=30")
    old, rss_old, _ = latency(long, "--json", "roll", "d20", "--for", "C0000")
    new, rss_new, _ = latency(long, "--json", "roll", "d20", "--for", "Fresh")
    row(
        "append to a character with 100k events",
        f"{old * 1000:.0f} ms, {rss_old} MB",
        f"{old / new:.2f}x a new character's ({new * 1000:.0f} ms, {rss_new} MB)",
    )
    users.human_log(long, "C0000", 20_000)

    # 1M tier ---------------------------------------------------------------------------
    big = work / "1m.db"
    seconds, rss, _ = cli(big, "import", str(work / "1m.jsonl"))
    rate = n1m / seconds
    row(
        "import 1M (verify, bulk insert, read models)",
        f"{rate:,.0f} events/s, {rss} MB",
        f"{rate / raw_save:.2f}x raw save",
    )
    users.start_up(big, "1M")  # as a table plays on after an import (a rebuild clears the sentences it kept)
    seconds, rss, _ = cli(big, "--json", "rebuild")
    rate = n1m / seconds
    row(
        "rebuild 1M (index + characters)",
        f"{rate:,.0f} events/s, {rss} MB",
        f"{rate / raw_read:.2f}x raw read (goal >= 0.6)",
    )
    seconds, rss, _ = cli(big, "--json", "verify")
    row("verify 1M", f"{n1m / seconds:,.0f} events/s, {rss} MB")
    seconds, rss, _ = cli(big, "export", "--output", str(work / "again-1m.jsonl"))
    row("export 1M", f"{n1m / seconds:,.0f} events/s, {rss} MB")
    table_view(big)
    signing.measure(work)
    crypto.measure()
    fair_dice.measure(
        [(str(work / f"fair-{i}.db"), str(work / f"old-{i}.db")) for i in range(fair_dice.RUNS)], "SQLite"
    )
    frontdoors.measure(work)
    frontdoors.sqlite_over_http(work, {"10k": small, "1M": big})
    proofs.measure(work)
    documents.signed_import(work, options.signed_events)
    costs.measure(str(work / "costs.db"), "SQLite")
    load.table(work, options.load_seconds)
    if options.serve_writes:
        serve_memory.measure(work, options.serve_writes)
    if options.postgres:
        from .postgres import databases, tier

        tier(options.postgres, work, n100k, n1m)
        with databases(options.postgres, ["costs"]) as url:
            costs.measure(url["costs"], "PostgreSQL")
        fair_dice.postgres(options.postgres)
        load.tables(options.postgres, work, options.load_seconds)
    row("total benchmark time", f"{time.perf_counter() - begun:.0f} s", "goal < 600 s")
    print("\n" + markdown())
    if not options.keep:
        shutil.rmtree(work)


def table_view(db: Path) -> None:
    """The table view's rows (benchmarks/sse.py) on the 1M ledger."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.sse", "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent.parent,
    )
    if done.returncode:
        reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        row("table view (benchmarks/sse.py)", "failed", reason)
        return
    for line in done.stdout.splitlines()[2:]:
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) == 3:
            row(f"table view: {cells[0]}", cells[1], cells[2])
