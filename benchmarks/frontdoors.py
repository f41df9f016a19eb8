"""Writes through the front doors that pay no interpreter start: the shell (and the table view's server,
assistants) run each command in a process that stays up, through `Ledger.execute_document`. p50 and p99 of
a Potestas injure and a PenDragon Pass check, signed, on a ledger that already holds HISTORY events of
its campaign; and `chronicle shell` fed lines on stdin, per line, as a whole process.

`python -m benchmarks.frontdoors` runs these rows alone; `python -m benchmarks` includes them."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .measure import row

HISTORY = 2_000
WRITES = 300
SHELL_LINES = 300


def percentiles(seconds: list[float]) -> tuple[float, float]:
    ordered = sorted(seconds)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def timed_writes(db: Path, system: str, setup: list[dict], document: dict) -> list[float]:
    from chronicle.ledger.application import Ledger

    ledger = Ledger(str(db), by="gm")
    try:
        for line in setup:
            ledger.execute_document(line)
        for _ in range(HISTORY // 2):  # the campaign's history: writes of the same kind
            ledger.execute_document(document)
        times = []
        for _ in range(WRITES):
            started = time.perf_counter()
            ledger.execute_document(document)
            times.append(time.perf_counter() - started)
        return times
    finally:
        ledger.close()


def measure(work: Path) -> None:
    cases = {
        "Potestas injure": (
            "potestas",
            [
                {"command": "campaign new", "name": "Doors", "system": "potestas"},
                {"command": "character add", "name": "Brand", "stat": ["fort=40"]},
            ],
            {"command": "injure", "name": "Brand", "damage": 3, "save_roll": 15},
        ),
        "PenDragon Pass check": (
            "pendragon-pass",
            [
                {"command": "campaign new", "name": "Doors", "system": "pendragon-pass"},
                {"command": "character add", "name": "Vasana", "stat": ["siz=15", "valorous=15"]},
            ],
            {"command": "check", "name": "Vasana", "skill": "valorous"},
        ),
    }
    for label, (system, setup, document) in cases.items():
        p50, p99 = percentiles(timed_writes(work / f"doors-{system}.db", system, setup, document))
        row(
            f"front door write ({label}), p50 / p99",
            f"{p50 * 1000:.1f} / {p99 * 1000:.1f} ms",
            "goal p50 <= 15 ms, p99 <= 60 ms",
        )
    db = work / "doors-potestas.db"
    lines = "".join("injure Brand --damage 3 --save-roll 15\n" for _ in range(SHELL_LINES))
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "--db", str(db), "shell"],
        input=lines,
        text=True,
        check=True,
        capture_output=True,
    )
    whole = time.perf_counter() - started
    row(f"chronicle shell, {SHELL_LINES} injure lines on stdin", f"{whole / SHELL_LINES * 1000:.1f} ms a line")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="chronicle-doors-") as folder:
        import os

        os.environ["CHRONICLE_HOME"] = str(Path(folder) / "home")
        measure(Path(folder))
