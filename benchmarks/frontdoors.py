"""Writes through the front doors that pay no interpreter start: the shell (and the table view's server,
assistants) run each command in a process that stays up, through `Ledger.execute_document`. p50 and p99 of
a Potestas injure and a PenDragon Pass check, signed, on a ledger that already holds HISTORY events of
its campaign; and `chronicle shell` fed lines on stdin, per line, as a whole process.

Over HTTP (`over_http`): the same two writes, and an AD&D 2E injury and rest in the ledger's own generated
campaign, sent as signed `POST /api/commands` to a real `chronicle serve --writes` process on 127.0.0.1
(benchmarks/load.py's server, with its per-key rate limit lifted, and its plain HTTP/1.1 client on one
kept-alive connection) serving a copy of a generated ledger (10k or 1M events; on PostgreSQL the tier's own
databases): one write at a time, HTTP_WARM first, then HTTP_WRITES measured, each from its request's first
byte to its answer's last; then the same as lines fed one at a time to a `chronicle --json shell`
process, each timed to its answer's line. The server and the shells are stopped whatever happens.

`python -m benchmarks.frontdoors [--events N] [--postgres URL]` runs these rows alone, the HTTP ones on a
generated ledger of N events (10,000 by default; on PostgreSQL too with --postgres); `python -m benchmarks`
includes them, on its 10k and 1M ledgers."""

from __future__ import annotations

import argparse
import asyncio
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from . import load
from .measure import copy, removed, row

HISTORY = 2_000
WRITES = 300
SHELL_LINES = 300
HTTP_WARM = 60  # writes of each case over HTTP before the measured ones (the server's first requests, caches)
HTTP_WRITES = 300  # measured writes of each case over HTTP
GOAL = "goal p50 <= 15 ms, p99 <= 60 ms"


def percentiles(seconds: list[float]) -> tuple[float, float]:
    ordered = sorted(seconds)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def timed_writes(db: Path, system: str, setup: list[dict], document: dict) -> list[float]:
    from chronicle.ledger.application.ledger import Ledger

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
    cases: dict[str, tuple[str, list[dict[str, Any]], dict[str, Any]]] = {
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


# over HTTP, through `serve --writes` ------------------------------------------------------------------


@dataclass
class Case:
    label: str
    campaign: str  # its id
    name: str  # its name
    key: Any  # chronicle.ledger.trust.identity.Identity: the player's, a participant of the campaign
    documents: list[Callable[[], dict[str, Any]]]  # taken in turn
    lines: list[str]  # the same, as the shell's lines


def enlist(target: str) -> list[Case]:
    """Add to TARGET (a ledger holding one generated AD&D 2E campaign) a Potestas campaign and a PenDragon
    Pass campaign of one character each, and a character of the generated campaign; each played by a player
    with a key of their own (a participant). The gm, a participant of each, is this machine's identity
    ($CHRONICLE_HOME's), which the shell's lines sign with."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from chronicle.ledger.application.ledger import Ledger
    from chronicle.ledger.trust.identity import Identity

    ledger = Ledger(target, by="gm")
    try:
        index = ledger.app.index
        index.catch_up()
        generated = next((ident, name) for ident, name, system in index.campaigns() if system == "adnd2e")
        cases = []
        plans: list[tuple[str, str | None, str, list[str], list[Callable[[], dict[str, Any]]], list[str]]] = [
            (
                "Potestas injure",
                "potestas",
                "Brand",
                ["fort=40"],
                [lambda: {"command": "injure", "name": "Brand", "damage": 3, "save_roll": 15}],
                ["injure Brand --damage 3 --save-roll 15"],
            ),
            (
                "PenDragon Pass check",
                "pendragon-pass",
                "Vasana",
                ["siz=15", "valorous=15"],
                [lambda: {"command": "check", "name": "Vasana", "skill": "valorous"}],
                ["check Vasana valorous"],
            ),
            (
                "AD&D 2E injure / rest in the generated campaign",
                None,
                "Doorway",
                ["hp=60", "level=5"],
                [
                    lambda: {"command": "injure", "name": "Doorway", "damage": 3, "mode": "sap"},
                    lambda: {"command": "rest", "name": "Doorway", "hours": 8},
                ],
                ["injure Doorway --damage 3 --mode sap", "rest Doorway --hours 8"],
            ),
        ]
        for label, system, character, stats, documents, lines in plans:
            ledger.campaign = None
            if system is None:
                campaign, name = generated
            else:
                name = f"Doors {system}"
                made = ledger.execute_document({"command": "campaign new", "name": name, "system": system})
                campaign = str(made.document["id"])
            ledger.campaign = name
            gm = {"command": "participant add", "name": "gm", "role": "gm", "key": ledger.identity.public_key_text}
            ledger.execute_document(gm)
            ledger.execute_document({"command": "character add", "name": character, "stat": stats})
            key = Identity(Ed25519PrivateKey.generate())
            document = {"command": "participant add", "name": f"P {character}", "role": "player", "plays": [character]}
            ledger.execute_document({**document, "key": key.public_key_text})
            cases.append(Case(label, campaign, name, key, documents, lines))
        return cases
    finally:
        ledger.close()


async def sequential(port: int, case: Case, tag: str) -> tuple[list[float], Counter[str]]:
    """HTTP_WARM writes, then HTTP_WRITES timed, one at a time on one kept-alive connection; (the measured
    writes' seconds, the count of each kind of failure)."""
    from chronicle.ledger.trust.signing import sign

    http = load.Http(port)
    times: list[float] = []
    failed: Counter[str] = Counter()
    try:
        for n in range(HTTP_WARM + HTTP_WRITES):
            document = case.documents[n % len(case.documents)]()
            signed = sign(case.key, case.campaign, document, f"{tag}-{n}")
            body = orjson.dumps({"campaign": case.campaign, **signed.model_dump()})
            sent = time.perf_counter()
            try:
                status, answer = await asyncio.wait_for(http.request("POST", "/api/commands", body), load.TIMEOUT)
            except (TimeoutError, ConnectionError, OSError, asyncio.IncompleteReadError, ValueError) as problem:
                http.close()
                failed[repr(problem)[:80]] += 1
                continue
            took = time.perf_counter() - sent
            if status != 200:
                error = (orjson.loads(answer) if answer else {}).get("error", {})
                why = f"{status} {error.get('code')}: {str(error.get('message'))[:80]}"
                failed[why] += 1
            elif n >= HTTP_WARM:
                times.append(took)
    finally:
        http.close()
    return times, failed


def typed(target: str, work: Path, case: Case) -> tuple[list[float], Counter[str]]:
    """CASE's lines fed one at a time to one `chronicle --json shell` process on TARGET (as this machine's
    identity, the campaign's gm): HTTP_WARM lines, then HTTP_WRITES timed from the line's write to its
    answer's line (the interpreter's start aside); (the measured lines' seconds, each kind of failure)."""
    command = [sys.executable, "-m", "chronicle.cli", "--db", target, "--campaign", case.name, "--json", "shell"]
    times: list[float] = []
    failed: Counter[str] = Counter()
    with (work / "doors-shell.err").open("wb") as err:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
    assert process.stdin is not None and process.stdout is not None
    try:
        for n in range(HTTP_WARM + HTTP_WRITES):
            line = case.lines[n % len(case.lines)]
            sent = time.perf_counter()
            process.stdin.write(f"{line}\n".encode())
            process.stdin.flush()
            if not select.select([process.stdout], [], [], load.TIMEOUT)[0]:
                failed["no answer in time"] += 1
                break
            answer = process.stdout.readline()
            took = time.perf_counter() - sent
            if not answer:
                failed["the shell ended"] += 1
                break
            if answer.startswith(b'{"error"'):
                error = orjson.loads(answer)["error"]
                why = f"{error.get('code')}: {str(error.get('message'))[:80]}"
                failed[why] += 1
            elif n >= HTTP_WARM:
                times.append(took)
    finally:
        process.stdin.close()
        load.stop(process)
    return times, failed


def shown(where: str, door: str, case: Case, times: list[float], failed: dict[str, int]) -> None:
    refused = ", ".join(f"{n} x {why}" for why, n in sorted(failed.items())) if failed else ""
    if not times:
        row(f"{door} at {where} ({case.label}), p50 / p99", f"failed: {refused}", GOAL)
        return
    p50, p99 = percentiles(times)
    row(
        f"{door} at {where} ({case.label}), p50 / p99",
        f"{p50 * 1000:.1f} / {p99 * 1000:.1f} ms" + (f" ({len(times)} answered; {refused})" if failed else ""),
        GOAL,
    )


def over_http(target: str, work: Path, where: str) -> None:
    """The rows of a write through `serve --writes` on TARGET, and of a `shell` line, which this writes to
    (a copy, or a database made for the run): WHERE names the ledger in the rows ("10k", "PostgreSQL 1M")."""
    cases = enlist(target)
    server = load.start(target, work, 90, limit=False)
    try:
        results = [asyncio.run(sequential(server.port, case, f"doors-{i}")) for i, case in enumerate(cases)]
    finally:
        load.stop(server.process)
    said = server.errors.read_text().strip()
    if said:
        print(f"the server said:\n{said[-3000:]}", file=sys.stderr, flush=True)
    for case, (times, failed) in zip(cases, results, strict=True):
        shown(where, "HTTP write", case, times, failed)
    for case in cases:
        shown(where, "shell line", case, *typed(target, work, case))


def sqlite_over_http(work: Path, ledgers: dict[str, Path]) -> None:
    """`over_http` on a copy of each closed SQLite ledger (named by its size); the copies removed after."""
    for where, db in ledgers.items():
        target = copy(db, work / f"doors-http-{where}.db")
        try:
            over_http(str(target), work, where)
        finally:
            removed(target)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.frontdoors", description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000, help="the HTTP rows' generated ledger (10,000)")
    parser.add_argument("--postgres", metavar="URL", help="the HTTP rows on this PostgreSQL server too")
    parser.add_argument("--http-only", action="store_true", help="only the HTTP rows")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chronicle-doors-") as folder:
        work = Path(folder)
        os.environ["CHRONICLE_HOME"] = str(work / "home")
        if not options.http_only:
            measure(work)
        from .generate import ledger
        from .measure import cli

        where = f"{options.events // 1000}k" if options.events < 1_000_000 else f"{options.events // 1_000_000}M"
        ledger(work / "doors.jsonl", options.events, characters=1000, name="Small", seed=3)
        cli(work / "doors.db", "import", str(work / "doors.jsonl"))
        sqlite_over_http(work, {where: work / "doors.db"})
        if options.postgres:
            from .postgres import databases

            with databases(options.postgres, ["doors"]) as url:
                cli(url["doors"], "import", str(work / "doors.jsonl"))
                over_http(url["doors"], work, f"PostgreSQL {where}")


if __name__ == "__main__":
    main()
