"""`python -m benchmarks`: chronicle against its baselines, measured in one run on this machine.

Tiers: 100k events over 1,000 characters (generated through the domain, imported with full
verification), and 1M events over 1,000 characters (ten campaigns of 100 characters: the generated
100-character ledger re-keyed ten times at the JSON level, hashes and chains recomputed, then
imported with full verification too). The 100k import, rebuild and batches (each batch on a copy
of the same ledger) and their baselines are each the median of five runs; the import and the
rebuild take turns with their library baseline (save, import, save, import, ...), so a drift in
the machine's speed during the run moves both sides of their ratio alike (this machine's speed
varies by some 5% from minute to minute). Every chronicle command runs as its own process; peak
RSS is that process's: at 1M, `verify` and `export` read one campaign of 100k events out of the ten,
so their memory next to the 100k tier's shows whether it grows with the ledger.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson

from . import baselines
from .generate import ledger

ROWS: list[tuple[str, str, str]] = []
RUNS = 5  # the 100k import, rebuild and batches, and their baselines, are the median of this many runs
MIXED = ("roll d20 --for {} --reason bench", "injure {} --damage 3 --mode lethal", "rest {} --hours 8")


def cli(db: Path | str, *args: str, stdin: Path | None = None) -> tuple[float, int, str]:
    """(seconds, peak RSS in MB, stdout) of one `chronicle` process."""
    command = [sys.executable, "-m", "chronicle.cli", "--db", str(db), *args]
    return _measure(command, stdin)


TIME = "/usr/bin/time"


def _measure(command: list[str], stdin: Path | None = None) -> tuple[float, int, str]:
    """Wall time, peak RSS and stdout of one process.

    The peak RSS is taken by /usr/bin/time when it exists: a child forked straight from this (large)
    benchmark process reports this process's own RSS as its peak (the fork's copy counts), which hid
    every command's real footprint behind the harness's ~130 MB."""
    with tempfile.NamedTemporaryFile(prefix="rss-", delete=False) as rss_file:
        pass  # a name for /usr/bin/time to write to
    wrapped = [TIME, "-f", "%M", "-o", rss_file.name, *command] if os.path.exists(TIME) else command
    try:
        started = time.perf_counter()
        with (stdin.open("rb") if stdin else open(os.devnull, "rb")) as source, tempfile.TemporaryFile() as out:
            process = subprocess.Popen(wrapped, stdin=source, stdout=out, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(process.pid, 0)
            seconds = time.perf_counter() - started
            process.returncode = os.waitstatus_to_exitcode(status)
            if process.returncode:
                raise SystemExit(f"{shlex.join(command)} failed: {process.stderr.read().decode()[-2000:]}")
            out.seek(0)
            text = Path(rss_file.name).read_text().split()
            peak_kb = int(text[-1]) if wrapped is not command and text else usage.ru_maxrss
            return seconds, peak_kb // 1024, out.read().decode()
    finally:
        os.unlink(rss_file.name)


WARM = ("import importlib, pkgutil, chronicle\n"
        "for module in pkgutil.walk_packages(chronicle.__path__, 'chronicle.'):\n"
        "    importlib.import_module(module.name)\n")


def warm(work: Path) -> None:
    """Let the measured processes read compiled bytecode, as any Python install does after a first
    run: compiled here once, into a cache in the working folder. (Where PYTHONDONTWRITEBYTECODE is
    set, as on our CI machines, every process compiled chronicle's modules from source, some 0.1 s.)"""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(work / "pycache")  # inherited by every child, baselines' too
    subprocess.run([sys.executable, "-c", WARM], check=True)
    cli(work / "warm.db", "demo")


def _copy(db: Path, to: Path) -> Path:
    """A copy of a closed ledger (its read models caught up), for a run that must not change the original."""
    for suffix in ("", "-wal"):
        if Path(f"{db}{suffix}").exists():
            shutil.copyfile(f"{db}{suffix}", f"{to}{suffix}")
    return to


def row(what: str, value: str, goal: str = "") -> None:
    ROWS.append((what, value, goal))
    print(f"{what:<58} {value:<30} {goal}", flush=True)


def rekey(template: Path, out: Any, name: str) -> int:
    """Copy a generated campaign under another name: new ids, hashes and chains, same events."""
    from chronicle.domain.campaign import campaign_id
    from chronicle.domain.character import character_id
    from chronicle.domain.ids import event_id

    new_campaign = campaign_id(name)
    ids: dict[str, UUID] = {}
    heads: dict[UUID, str] = {}
    count = 0
    with template.open("rb") as source:
        for text in source:
            record = orjson.loads(text)
            state = record["state"]
            if record["topic"].endswith(":CampaignStarted"):
                ids[record["originator_id"]] = new_campaign
                state["name"] = name
            elif record["topic"].endswith(":CharacterRegistered"):
                ids[record["originator_id"]] = character_id(new_campaign, state["name"])
                state["campaign_id"] = str(new_campaign)
            owner = ids[record["originator_id"]]
            state["prev_hash"] = heads.get(owner, "")
            body = {k: v for k, v in state.items() if k != "hash"}
            body.update(originator_id=str(owner), originator_version=record["originator_version"])
            state["hash"] = hashlib.sha256(orjson.dumps([record["topic"], body], option=orjson.OPT_SORT_KEYS)).hexdigest()
            heads[owner] = state["hash"]
            out.write(orjson.dumps({"id": event_id(owner, record["originator_version"]), "topic": record["topic"],
                                    "originator_id": str(owner), "originator_version": record["originator_version"],
                                    "state": state}, option=orjson.OPT_SORT_KEYS) + b"\n")
            count += 1
    return count


def show_latency(db: Path | str, name: str, campaign: str) -> tuple[float, int]:
    return latency(db, "--campaign", campaign, "--json", "character", "show", name)[:2]


def log_row(db: Path | str, campaign: str, label: str) -> None:
    """One character's log: it reads that character's events, not its campaign's."""
    seconds, rss, out = latency(db, "--campaign", campaign, "--json", "log", "C0007")
    events = len(orjson.loads(out)["events"])
    row(f"{label} ({events:,} events)", f"{seconds * 1000:.0f} ms, {rss} MB")


def latency(db: Path | str, *args: str, runs: int = 7) -> tuple[float, int, str]:
    """The median time, the peak RSS and the last output of `runs` runs of one command."""
    times, peak, out = [], 0, ""
    for _ in range(runs):
        seconds, rss, out = cli(db, *args)
        times.append(seconds)
        peak = max(peak, rss)
    return statistics.median(times), peak, out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL", help="also measure on this PostgreSQL server (it needs CREATE DATABASE)")
    parser.add_argument("--keep", action="store_true", help="keep the working folder (some 3 GB of ledgers) afterwards")
    options = parser.parse_args()
    begun = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="chronicle-bench-"))
    print(f"working in {work}\n", flush=True)
    warm(work)

    # generation -------------------------------------------------------------------------
    started = time.perf_counter()
    n100k = ledger(work / "100k.jsonl", 100_000, characters=1000)
    generated = n100k / (time.perf_counter() - started)
    row("generate 100k events (domain, hash-chained)", f"{generated:,.0f} events/s")
    ledger(work / "template.jsonl", 100_000, characters=100, name="Template", seed=2)
    with (work / "1m.jsonl").open("wb") as out:
        n1m = sum(rekey(work / "template.jsonl", out, f"Bench-{i}") for i in range(10))

    # baselines, the library's taking turns with chronicle's runs against it ---------------
    saves, imports = [], []
    for i in range(RUNS):
        saves.append(baselines.library_save(work / f"raw-{i}.db", 100_000))
        imports.append(cli(work / f"100k-{i}.db", "import", str(work / "100k.jsonl")))
    reads, rebuilds = [], []
    for i in range(RUNS):  # each rebuild on its own import
        reads.append(baselines.library_read(work / "raw-0.db"))
        rebuilds.append(cli(work / f"100k-{i}.db", "--json", "rebuild"))
    raw_save, raw_read = statistics.median(saves), statistics.median(reads)
    raw_many = baselines.sqlite_executemany(work / "many.db", work / "100k.jsonl")
    rolls = [shlex.split(f"roll d20 --for C{i % 1000:04d} --reason bench") for i in range(20000)]
    mixed = [shlex.split(MIXED[i % 3].format(f"C{i % 1000:04d}")) for i in range(20000)]
    bare_rolls, bare_mixed = (statistics.median(baselines.click_parse(script) for _ in range(RUNS)) for script in (rolls, mixed))
    python_only = statistics.median(_measure([sys.executable, "-c", "import click, pydantic, eventsourcing.application"])[0]
                                    for _ in range(7))
    row("baseline: eventsourcing batched save (1,000 aggregates)", f"{raw_save:,.0f} events/s")
    row("baseline: eventsourcing log read + decode", f"{raw_read:,.0f} events/s")
    row("baseline: sqlite3 executemany", f"{raw_many:,.0f} rows/s")
    row("baseline: Click parse into no-op commands (rolls)", f"{bare_rolls:,.0f} lines/s")
    row("baseline: Click parse into no-op commands (mixed)", f"{bare_mixed:,.0f} lines/s")
    row("baseline: python -c 'import click, pydantic, eventsourcing.application'", f"{python_only * 1000:.0f} ms")

    # 100k tier --------------------------------------------------------------------------
    db = work / f"100k-{RUNS - 1}.db"
    seconds, rss = statistics.median(run[0] for run in imports), max(run[1] for run in imports)
    rate = n100k / seconds
    row("import 100k (verify + bulk insert)", f"{rate:,.0f} events/s, {rss} MB",
        f"{rate / raw_save:.2f}x raw save (goal >= 1.0), {rate / raw_many:.2f}x executemany (stretch 0.3)")
    seconds, rss = statistics.median(run[0] for run in rebuilds), max(run[1] for run in rebuilds)
    rate = n100k / seconds
    row("rebuild 100k (index + characters)", f"{rate:,.0f} events/s, {rss} MB", f"{rate / raw_read:.2f}x raw read (goal >= 0.5)")
    seconds, rss, _ = cli(db, "--json", "rebuild")
    rate = n100k / seconds
    row("rebuild 100k again (the old read models dropped too)", f"{rate:,.0f} events/s, {rss} MB",
        f"{rate / raw_read:.2f}x raw read")
    seconds, rss, _ = cli(db, "--json", "verify")
    row("verify 100k", f"{n100k / seconds:,.0f} events/s, {rss} MB")
    seconds, rss, _ = cli(db, "export", "--output", str(work / "again.jsonl"))
    row("export 100k", f"{n100k / seconds:,.0f} events/s, {rss} MB")
    for what, script, bare in (("free rolls", rolls, bare_rolls), ("mixed: rolls, injuries, rests", mixed, bare_mixed)):
        lines = work / "batch.txt"
        lines.write_text("\n".join(shlex.join(args) for args in script) + "\n")
        batches = [cli(_copy(db, work / f"batch-{i}.db"), "batch", "-", stdin=lines) for i in range(RUNS)]
        seconds, rss = statistics.median(run[0] for run in batches), max(run[1] for run in batches)
        rate = len(script) / seconds
        row(f"batch 20,000 lines, {what} (one process, one transaction)", f"{rate:,.0f} lines/s, {rss} MB",
            f"{rate / bare:.2f}x Click parse (goal >= 0.5)")
    show_100k, rss_100k = show_latency(db, "C0007", "Bench")
    row("character show at 100k", f"{show_100k * 1000:.0f} ms, {rss_100k} MB")
    log_row(db, "Bench", "log of one character at 100k")

    # 10k reference and 1M tier -----------------------------------------------------------
    small = work / "10k.db"
    ledger(work / "10k.jsonl", 10_000, characters=1000, name="Small", seed=3)
    cli(small, "import", str(work / "10k.jsonl"))
    cli(small, "--json", "character", "list")
    show_10k, rss_10k = show_latency(small, "C0007", "Small")
    row("character show at 10k", f"{show_10k * 1000:.0f} ms, {rss_10k} MB")

    # a character with 100k events: appending to it against appending to a new one ------------
    long = work / "long.db"
    ledger(work / "long.jsonl", 100_000, characters=1, name="Long", seed=4)
    cli(long, "import", str(work / "long.jsonl"))
    cli(long, "--json", "character", "list")
    cli(long, "character", "add", "Fresh", "--stat", "hp=30")
    old, rss_old, _ = latency(long, "--json", "roll", "d20", "--for", "C0000")
    new, rss_new, _ = latency(long, "--json", "roll", "d20", "--for", "Fresh")
    row("append to a character with 100k events", f"{old * 1000:.0f} ms, {rss_old} MB",
        f"{old / new:.2f}x a new character's ({new * 1000:.0f} ms, {rss_new} MB)")

    big = work / "1m.db"
    seconds, rss, _ = cli(big, "import", str(work / "1m.jsonl"))
    rate = n1m / seconds
    row("import 1M (verify + bulk insert)", f"{rate:,.0f} events/s, {rss} MB", f"{rate / raw_save:.2f}x raw save")
    seconds, rss, _ = cli(big, "--json", "rebuild")
    rate = n1m / seconds
    row("rebuild 1M (index + characters)", f"{rate:,.0f} events/s, {rss} MB", f"{rate / raw_read:.2f}x raw read (goal >= 0.5)")
    show_1m, rss_1m = show_latency(big, "C0007", "Bench-3")
    row("character show at 1M", f"{show_1m * 1000:.0f} ms, {rss_1m} MB",
        f"{show_1m / show_10k:.2f}x at 10k (goal <= 1.2), {show_1m / python_only:.2f}x bare imports (goal <= 2)")
    log_row(big, "Bench-3", "log of one character at 1M")
    seconds, rss, _ = cli(big, "--campaign", "Bench-3", "--json", "verify")
    row("verify at 1M (one campaign of 100k)", f"{n1m / 10 / seconds:,.0f} events/s, {rss} MB")
    seconds, rss, _ = cli(big, "--campaign", "Bench-3", "export", "--output", str(work / "again-1m.jsonl"))
    row("export at 1M (one campaign of 100k)", f"{n1m / 10 / seconds:,.0f} events/s, {rss} MB")
    if options.postgres:
        from .postgres import tier

        tier(options.postgres, work, n100k, n1m)
    row("total benchmark time", f"{time.perf_counter() - begun:.0f} s", "goal < 600 s")
    print("\n" + markdown())
    if not options.keep:
        shutil.rmtree(work)


def markdown() -> str:
    lines = ["| measurement | result | against the baseline |", "|---|---|---|"]
    lines += [f"| {what} | {value} | {goal} |" for what, value, goal in ROWS]
    return "\n".join(lines)
