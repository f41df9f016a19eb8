"""What the ledger's fair dice add to a write (docs/fair-dice.md), in-process (no interpreter start): a roll
of the ledger's fair dice (its seed taken from the committed chain in the write's transaction, the faces
from the HMAC stream) against the same roll of the old generator (a seeded ledger's, which takes nothing
from storage), on two ledgers side by side, one append of each in turn; and, apart, what committing to a
new chain of seeds costs (once every chain's length of fair rolls), amortized over the chain.

The rolls of each run are timed together; a run's cost is the difference of the two sides' times per roll,
and the rows give the median of RUNS runs. The first roll of each fair ledger (its first commitment) is
left out of the appends and timed as the renewal.

`python -m benchmarks.fair_dice [--postgres URL]` runs these rows alone; `python -m benchmarks` includes them."""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from .measure import row

APPENDS = 300
RUNS = 5


def appends(target: str, old: str) -> tuple[list[tuple[float, float]], list[tuple[float, float]], float]:
    """Each roll's (wall, CPU) seconds, fair and of the old generator, and the seconds of the first fair roll
    (which commits to a chain), on two new ledgers at TARGET and OLD."""
    from chronicle.ledger.application.commands import table
    from chronicle.ledger.application.ledger import Ledger

    fair, seeded = Ledger(target, by="gm"), Ledger(old, by="gm", seed=1)
    taken: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    try:
        for ledger in (fair, seeded):
            ledger.execute(table.CampaignNew(name="Bench", system="potestas"))
            ledger.execute(table.CharacterAdd(name="Brand", stat=["fort=30"]))
        roll = table.Roll(notation="3d6", for_="Brand")
        started = time.perf_counter()
        fair.execute(roll)
        renewal = time.perf_counter() - started
        seeded.execute(roll)
        for i in range(APPENDS):
            for ledger in (fair, seeded) if i % 2 else (seeded, fair):
                started, cpu = time.perf_counter(), time.process_time()
                reply = ledger.execute(roll)
                taken[ledger is fair].append((time.perf_counter() - started, time.process_time() - cpu))
                assert ("fair_dice" in reply.document) is (ledger is fair)
        return taken[True], taken[False], renewal
    finally:
        fair.close()
        seeded.close()


def measure(targets: list[tuple[str, str]], storage: str) -> None:
    """TARGETS: a pair of new ledgers' targets for each run. A run's cost is the median of its rolls'
    differences, pair by pair (a fair roll and the roll of the old generator made next to it): the other
    work of a shared machine moves a few pairs, not the median."""
    from chronicle.ledger.application.fair_dice import chain_length

    runs = [appends(target, old) for target, old in targets]
    wall = statistics.median(
        statistics.median(f[0] - o[0] for f, o in zip(fair, old, strict=True)) for fair, old, _ in runs
    )
    cpu = statistics.median(
        statistics.median(f[1] - o[1] for f, o in zip(fair, old, strict=True)) for fair, old, _ in runs
    )
    old = statistics.median(statistics.median(o[0] for o in old) for _, old, _ in runs)
    renewal = statistics.median(renewal for _, _, renewal in runs)
    length = chain_length()
    row(f"in-process roll, the old generator ({storage}, baseline)", f"{old * 1000:.2f} ms")
    row(
        f"in-process roll, the ledger's fair dice ({storage})",
        f"+{wall * 1000:.3f} ms ({cpu * 1000:.3f} ms CPU)",
        "a write's added time (goal <= 1 ms)",
    )
    row(
        f"first fair roll of a chain, committing {length:,} seeds ({storage})",
        f"{renewal * 1000:.1f} ms",
        f"+{(renewal - old) / length * 1000:.3f} ms a roll over the chain",
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fair_dice", description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL", help="measure on this PostgreSQL server too (CREATE DATABASE)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chronicle-fair-") as folder:
        work = Path(folder)
        os.environ["CHRONICLE_HOME"] = str(work / "home")
        measure([(str(work / f"fair-{i}.db"), str(work / f"old-{i}.db")) for i in range(RUNS)], "SQLite")
        if options.postgres:
            postgres(options.postgres)


def postgres(server: str) -> None:
    """The rows on new databases of SERVER (made and dropped here)."""
    from .postgres import databases

    with databases(server, [f"{side}{i}" for i in range(RUNS) for side in ("fair", "old")]) as url:
        measure([(url[f"fair{i}"], url[f"old{i}"]) for i in range(RUNS)], "PostgreSQL")


if __name__ == "__main__":
    main()
