"""Command documents and signed events against the library's own batched save:

- `batch --jsonl` of LINES command documents (rolls, injuries, rests, as the command-line batch rows run
  them), each batch on its own copy of a 100k-event ledger, one process and one transaction; goal: >= 0.5x
  the library's batched save (events a second).
- `import` of a signed export: a campaign of EVENTS events, every one of them recorded by a `batch` of
  command lines (each line signed by the identity in use, as at a table) and exported; imported into a
  new ledger, which re-checks every hash, chain, outcome and signature and builds the read models; goal:
  >= 0.5x the library's save of as many events. Then `verify` of that ledger, with and without its
  signature checks, taking turns (benchmarks/signing.py's rows, on a campaign of EVENTS events).

Each row takes turns with its baseline (save, chronicle, save, ...; the median of RUNS each), so that a
drift in the machine's speed moves both sides of the ratio alike.

`python -m benchmarks.documents [--events 100000] [--lines 20000]` runs these rows alone (on a 100k ledger
it generates); `python -m benchmarks` includes them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import orjson

from . import baselines, signing
from .measure import cli, copy, removed, row

RUNS = 3
GOAL = 0.5
VERIFY_RUNS = 3  # verify of the signed import, with and without its checks, each
DOCUMENTS = (
    lambda name: {"command": "roll", "notation": "d20", "for": name, "reason": "bench"},
    lambda name: {"command": "injure", "name": name, "damage": 3, "mode": "lethal"},
    lambda name: {"command": "rest", "name": name, "hours": 8},
)
MIXED = ("roll d20 --for {} --reason bench", "injure {} --damage 3 --mode lethal", "rest {} --hours 8")
CAST = 1000  # characters of the generated campaigns


def batch_documents(db: Path, work: Path, lines: int = 20_000, runs: int = RUNS) -> None:
    """`batch --jsonl` of LINES mixed documents on copies of DB (a ledger of C0000..C0999), against the
    library's batched save of 100,000 events."""
    path = work / "documents.jsonl"
    with path.open("wb") as out:
        for i in range(lines):
            out.write(orjson.dumps(DOCUMENTS[i % 3](f"C{i % CAST:04d}")) + b"\n")
    saves, batches = [], []
    for i in range(runs):
        saves.append(baselines.library_save(work / f"raw-documents-{i}.db", 100_000))
        batches.append(cli(copy(db, work / f"documents-{i}.db"), "batch", "--jsonl", str(path)))
    what = f"batch --jsonl {lines:,} documents, mixed (one process, one transaction)"
    against_save(what, lines, "lines", batches, saves)
    path.unlink()


def signed_export(work: Path, events: int) -> tuple[Path, int]:
    """An export of one AD&D 2E campaign of about EVENTS events, every one signed: `campaign new`, then one
    `batch` of CAST `character add` lines and mixed rolls, injuries and rests. Returns (file, events)."""
    db, lines, export = work / "signed-source.db", work / "signed.txt", work / f"signed-{events}.jsonl"
    cli(db, "campaign", "new", "Signed", "--system", "adnd2e")
    with lines.open("w") as out:
        for number in range(min(CAST, events)):
            out.write(f"character add C{number:04d} --stat hp={20 + number % 60} --stat level={1 + number % 9}\n")
        for i in range(max(0, events - 1 - CAST)):
            out.write(MIXED[i % 3].format(f"C{i % CAST:04d}") + "\n")
    started = time.perf_counter()
    cli(db, "batch", str(lines))
    made = time.perf_counter() - started
    cli(db, "export", "--output", str(export))
    lines.unlink()
    count, signed = 0, 0
    with export.open("rb") as source:
        for text in source:
            record = orjson.loads(text)
            if "closing" in record:
                continue
            count += 1
            signed += record["state"].get("signed") is not None
    removed(db)
    assert signed == count, f"{count - signed} of {count} events unsigned"
    row(f"signed export of {count:,} events, made by one batch", f"{count / made:,.0f} events/s (the batch)")
    return export, count


def signed_import(work: Path, events: int = 100_000, runs: int = RUNS) -> None:
    export, count = signed_export(work, events)
    saves, imports = [], []
    for i in range(runs):
        saves.append(baselines.library_save(work / f"raw-signed-{i}.db", count))
        imports.append(cli(work / f"signed-{i}.db", "import", str(export)))
        if i < runs - 1:
            removed(work / f"signed-{i}.db")
        removed(work / f"raw-signed-{i}.db")
    what = f"import {count:,} signed events (signatures, hashes, outcomes checked; read models)"
    against_save(what, count, "events", imports, saves)
    export.unlink()
    signing.verify_rows(work / f"signed-{runs - 1}.db", count, VERIFY_RUNS)  # a long campaign's verify
    removed(work / f"signed-{runs - 1}.db")


def against_save(what: str, count: int, unit: str, runs: list[tuple[float, int, str]], saves: list[float]) -> None:
    """The row of COUNT UNITs done in each of RUNS (`cli`'s (seconds, peak MB, output) each), against the library's raw
    save measured beside them (events/s): the medians, and the largest peak."""
    seconds, rss = statistics.median(run[0] for run in runs), max(run[1] for run in runs)
    rate, save = count / seconds, statistics.median(saves)
    row(what, f"{rate:,.0f} {unit}/s, {rss} MB", f"{rate / save:.2f}x raw save ({save:,.0f} events/s; goal >= {GOAL})")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.documents", description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000, help="events of the signed export (100,000)")
    parser.add_argument("--lines", type=int, default=20_000, help="documents of the --jsonl batch (20,000)")
    parser.add_argument("--runs", type=int, default=RUNS, help=f"runs of each side ({RUNS})")
    parser.add_argument("--no-batch", action="store_true", help="only the signed import")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chronicle-documents-") as folder:
        work = Path(folder)
        os.environ["CHRONICLE_HOME"] = str(work / "home")
        if not options.no_batch:
            from .generate import ledger

            ledger(work / "100k.jsonl", 100_000, characters=CAST)
            cli(work / "100k.db", "import", str(work / "100k.jsonl"))
            batch_documents(work / "100k.db", work, options.lines, options.runs)
        signed_import(work, options.events, options.runs)


if __name__ == "__main__":
    main()
