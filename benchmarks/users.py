"""The speed goals' rows, measured as a user runs the commands: whole processes, one campaign in the
ledger and no `--campaign`, each against the bare import of click, pydantic and the library in the same
run (the median of RUNS processes each)."""

from __future__ import annotations

import shlex
import statistics
from pathlib import Path

import orjson

from .baselines import click_parse
from .measure import BARE, FLOOR, RUNS, RUNS_OF_LATENCY, against, cli, copy, latency, row

START_UP = 1.5  # goals, as multiples of the bare import
HELP = 2.0
BATCH = 0.25  # a batch of command lines through Click's public parsing, against Click's bare parse


def start_up(db: Path, tier: str, name: str = "C0007", imported: str = "C0008") -> None:
    """`character show`, `character list`, two single appends (a free roll, and a rest the rules decide)
    and `log NAME --tail 20`: of the newest 20 events of NAME, all recorded by commands as at a table
    (the appends measured here and a few more), and of a character whose newest events were imported.
    Each takes turns with the bare import (`against`); appends take turns with the floor too."""
    shows: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("character show", ("character", "show", name)),
        ("character list", ("character", "list")),
    )
    for label, args in shows:
        seconds, bare, rss = against(db, BARE, *args)
        row(
            f"{label} at {tier}",
            f"{seconds * 1000:.0f} ms, {rss} MB",
            f"{seconds / bare:.2f}x bare import (goal <= {START_UP})",
        )
    for label, args in (
        ("a single append: roll d20 --for NAME", ("roll", "d20", "--for", name)),
        ("a single append: rest NAME (the rules)", ("rest", name, "--hours", "1")),
    ):
        seconds, bare, rss = against(db, BARE, *args)
        again, floor, _ = against(db, FLOOR, *args)
        row(
            f"{label} at {tier}",
            f"{seconds * 1000:.0f} ms, {rss} MB",
            f"{seconds / bare:.2f}x bare import (goal <= {START_UP}), {again / floor:.2f}x the floor",
        )
    for _ in range(20 - 4 * RUNS_OF_LATENCY):
        cli(db, "roll", "d20", "--for", name)  # the table's newest 20 events of NAME, all recorded by commands
    for label, who in (("recorded by commands", name), ("imported", imported)):
        seconds, bare, rss = against(db, BARE, "log", who, "--tail", "20")
        row(
            f"log NAME --tail 20, {label}, at {tier}",
            f"{seconds * 1000:.0f} ms, {rss} MB",
            f"{seconds / bare:.2f}x bare import (goal <= {START_UP})",
        )


def help_row(work: Path, bare: float) -> None:
    seconds, rss, _ = latency(work / "none.db", "--help")
    row("chronicle --help", f"{seconds * 1000:.0f} ms, {rss} MB", f"{seconds / bare:.2f}x bare import (goal <= {HELP})")


def human_log(db: Path, name: str, events: int) -> None:
    """The same events for people and as JSON (goal: people's at most 2x)."""
    people, rss_people, _ = latency(db, "log", name, "--tail", str(events), runs=3)
    machine, rss_machine, out = latency(db, "--json", "log", name, "--tail", str(events), runs=3)
    count = len(orjson.loads(out)["events"])
    row(
        f"log of {count:,} events, for people",
        f"{people * 1000:.0f} ms, {rss_people} MB",
        f"{people / machine:.2f}x --json ({machine * 1000:.0f} ms, {rss_machine} MB; goal <= 2)",
    )


def batch_memory(db: Path, work: Path, lines: int, script: str, label: str) -> None:
    """One batch of `lines` lines on a copy of `db`: its peak memory (goal: flat, at most 250 MB)."""
    path = work / f"batch-{lines}.txt"
    with path.open("w") as out:
        for i in range(lines):
            out.write(script.format(f"C{i % 1000:04d}") + "\n")
    seconds, rss, _ = cli(db, "batch", str(path))
    path.unlink()
    row(
        f"batch of {lines:,} lines, {label} (one transaction)",
        f"{lines / seconds:,.0f} lines/s, {rss} MB",
        "peak memory (goal <= 250 MB)",
    )
    first = cli(db, "character", "show", "C0001")[0]  # it reads the row the batch left, or folds its events
    row("character show, the first command after that batch", f"{first * 1000:.0f} ms")


def batch_rates(db: Path, work: Path, scripts: dict[str, list[list[str]]]) -> None:
    """Batches of the same lines, each on its own copy of `db`: lines per second against Click's bare
    parse of those lines, the two taking turns (parse, batch, parse, ...; the median of RUNS each)."""
    for what, script in scripts.items():
        lines = work / "batch.txt"
        lines.write_text("\n".join(shlex.join(args) for args in script) + "\n")
        parses, runs = [], []
        for i in range(RUNS):
            parses.append(click_parse(script))
            runs.append(cli(copy(db, work / f"batch-{i}.db"), "batch", str(lines)))
        seconds, rss = statistics.median(run[0] for run in runs), max(run[1] for run in runs)
        rate, parse = len(script) / seconds, statistics.median(parses)
        row(
            f"batch {len(script):,} lines, {what} (one process, one transaction)",
            f"{rate:,.0f} lines/s, {rss} MB",
            f"{rate / parse:.2f}x Click parse ({parse:,.0f} lines/s; goal >= {BATCH})",
        )
