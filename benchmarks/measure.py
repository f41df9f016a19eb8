"""How the benchmark measures: each chronicle command a whole process (start-up included), its wall
time and peak memory, the way a user runs it."""

from __future__ import annotations

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROWS: list[tuple[str, str, str]] = []
RUNS = 5  # the 100k import, rebuild and batches, and their baselines, are the median of this many runs
TIME = "/usr/bin/time"


def cli(db: Path | str, *args: str, stdin: Path | None = None) -> tuple[float, int, str]:
    """(seconds, peak RSS in MB, stdout) of one `chronicle` process."""
    return measure([sys.executable, "-m", "chronicle.cli", "--db", str(db), *args], stdin)


def measure(command: list[str], stdin: Path | None = None) -> tuple[float, int, str]:
    """Wall time, peak RSS and stdout of one process.

    The peak RSS is taken by /usr/bin/time when it exists: a child forked straight from this (large)
    benchmark process reports this process's own RSS as its peak (the fork's copy counts)."""
    with tempfile.NamedTemporaryFile(prefix="rss-", delete=False) as rss_file:
        pass  # a name for /usr/bin/time to write to
    wrapped = [TIME, "-f", "%M", "-o", rss_file.name, *command] if os.path.exists(TIME) else command
    try:
        started = time.perf_counter()
        with stdin.open("rb") if stdin else open(os.devnull, "rb") as source, tempfile.TemporaryFile() as out:
            process = subprocess.Popen(wrapped, stdin=source, stdout=out, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(process.pid, 0)
            seconds = time.perf_counter() - started
            process.returncode = os.waitstatus_to_exitcode(status)
            if process.returncode:
                said = process.stderr.read().decode() if process.stderr is not None else ""
                raise SystemExit(f"{shlex.join(command)} failed: {said[-2000:]}")
            out.seek(0)
            text = Path(rss_file.name).read_text().split()
            peak_kb = int(text[-1]) if wrapped is not command and text else usage.ru_maxrss
            return seconds, peak_kb // 1024, out.read().decode()
    finally:
        os.unlink(rss_file.name)


RUNS_OF_LATENCY = 7  # processes of each start-up row


def latency(db: Path | str, *args: str, runs: int = RUNS_OF_LATENCY) -> tuple[float, int, str]:
    """The median time, the peak RSS and the last output of `runs` runs of one command."""
    times, peak, out = [], 0, ""
    for _ in range(runs):
        seconds, rss, out = cli(db, *args)
        times.append(seconds)
        peak = max(peak, rss)
    return statistics.median(times), peak, out


def against(db: Path | str, baseline: list[str], *args: str, runs: int = RUNS_OF_LATENCY) -> tuple[float, float, int]:
    """(median seconds of the command, of `baseline`, the command's peak RSS), the two taking turns
    (baseline, command, baseline, ...): a drift in the machine's speed moves both sides of the ratio."""
    mine, theirs, peak = [], [], 0
    for _ in range(runs):
        theirs.append(measure(baseline)[0])
        seconds, rss, _ = cli(db, *args)
        mine.append(seconds)
        peak = max(peak, rss)
    return statistics.median(mine), statistics.median(theirs), peak


BARE = [sys.executable, "-c", "import click, pydantic, eventsourcing.application"]
FLOOR = [
    sys.executable,
    "-c",
    "import click, eventsourcing.application\nfrom pydantic import BaseModel\nclass M(BaseModel):\n    x: int\n",
]


def bare_import() -> float:
    """The bare import, the median of seven: the baseline of the start-up rows' table line."""
    return statistics.median(measure(BARE)[0] for _ in range(7))


def floor_import() -> float:
    """What any command that loads a rule costs at least: the bare import, and pydantic's `BaseModel`
    with one model defined (the rules are pydantic models; the bare import of pydantic defers that)."""
    return statistics.median(measure(FLOOR)[0] for _ in range(7))


WARM = (  # each sub-package walked on its own: an editable install's `chronicle.__path__` lists none of them
    "import importlib, pkgutil\n"
    "for name in ('domain', 'ledger', 'projections', 'cli'):\n"
    "    package = importlib.import_module(f'chronicle.{name}')\n"
    "    for module in pkgutil.walk_packages(package.__path__, f'chronicle.{name}.'):\n"
    "        if not module.name.endswith('__main__'):  # `python -m chronicle.cli` would run the command\n"
    "            importlib.import_module(module.name)\n"
)


def warm(work: Path) -> None:
    """Let the measured processes read compiled bytecode, as any Python install does after a first
    run: compiled here once, into a cache in the working folder. (Where PYTHONDONTWRITEBYTECODE is
    set, as on our CI machines, every process would compile chronicle's modules from source first,
    and the rows would measure that compilation.)"""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(work / "pycache")  # inherited by every child, baselines' too
    subprocess.run([sys.executable, "-c", WARM], check=True)
    cli(work / "warm.db", "demo")


def copy(db: Path, to: Path) -> Path:
    """A copy of a closed ledger (its read models caught up), for a run that must not change the original."""
    for suffix in ("", "-wal"):
        if Path(f"{db}{suffix}").exists():
            shutil.copyfile(f"{db}{suffix}", f"{to}{suffix}")
    return to


def removed(db: Path) -> None:
    """A SQLite ledger gone, with its write-ahead log files."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)


def row(what: str, value: str, goal: str = "") -> None:
    ROWS.append((what, value, goal))
    print(f"{what:<58} {value:<30} {goal}", flush=True)


def markdown() -> str:
    lines = ["| measurement | result | against the baseline |", "|---|---|---|"]
    lines += [f"| {what} | {value} | {goal} |" for what, value, goal in ROWS]
    return "\n".join(lines)
