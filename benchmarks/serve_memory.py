"""`python -m benchmarks.serve_memory [--writes N]`: the memory of one `chronicle serve --writes` process
as writes go through it (goal: after 100k writes <= 1.2x after 1k).

One server on a fresh SQLite ledger in a temporary folder (one Potestas campaign, CLIENTS players, each
with their own Ed25519 key and character), its per-key rate limit lifted as benchmarks/load.py lifts it;
CLIENTS players write at once, each one signed `POST /api/commands` at a time on a kept-alive connection
(benchmarks/load.py's client), alternating an injury and a night's rest so that no character dies or
stays unhurt. The server process's resident memory (VmRSS of /proc/PID/status) and its peak (VmHWM) are
read after 1,000 writes, after 10,000 and after N; the server is stopped whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from . import load
from .measure import row

CLIENTS = 4  # writers at once: the server's HTTP and the writes on one core, the clients' signing on the other
CHECKPOINTS = (1_000, 10_000)  # writes after which the memory is read, besides after all of them


def memory(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of process PID, in kB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0])
    return found["VmRSS"], found["VmHWM"]


async def phase(team: list[load.Writer], port: int, writes: int, number: int) -> list[load.Write]:
    """WRITES writes in all, shared among the writers, each writer one at a time. Every phase's writers
    are numbered apart (the nonces `w{number}-...` are the writer's number and its count in the phase)."""
    done: list[load.Write] = []
    far = time.perf_counter() + 24 * 3600
    shares = [writes // len(team) + (1 if w < writes % len(team) else 0) for w in range(len(team))]
    await asyncio.gather(
        *(
            load.write_for(dataclasses.replace(w, number=number * 1000 + w.number), port, far, n, 0, done, True)
            for w, n in zip(team, shares, strict=True)
            if n
        )
    )
    return done


def measure(work: Path, writes: int = 100_000, clients: int = CLIENTS) -> None:
    target = str(work / "serve-memory.db")
    team, _ = load.prepare(target, 1, clients, 1)
    marks = sorted({*(c for c in CHECKPOINTS if c < writes), writes})
    readings: list[tuple[int, int, int, float, float]] = []  # (writes, VmRSS kB, VmHWM kB, seconds, server CPU)
    failed: Counter[str] = Counter()
    server = load.start(target, work, 0, limit=False)
    try:
        began, cpu = time.perf_counter(), server.cpu()
        written = 0
        for number, mark in enumerate(marks, start=1):
            done = asyncio.run(phase(team, server.port, mark - written, number))
            for w in done:
                if w.status != 200:
                    key = f"{w.status} {(w.code or '')[:80]}"
                    failed[key] += 1
            written = mark
            rss, hwm = memory(server.process.pid)
            readings.append((mark, rss, hwm, time.perf_counter() - began, server.cpu() - cpu))
            print(
                f"  after {mark:,} writes: VmRSS {rss / 1024:.0f} MB, VmHWM {hwm / 1024:.0f} MB,"
                f" {readings[-1][3]:.0f} s",
                flush=True,
            )
    finally:
        load.stop(server.process)
    said = server.errors.read_text().strip()
    if said:
        print(f"the server said:\n{said[-3000:]}", flush=True)
    first, last = readings[0], readings[-1]
    shown = " / ".join(f"{r[1] / 1024:.0f} MB" for r in readings)
    named = " / ".join(f"{r[0]:,}" for r in readings)
    row(
        f"serve's memory after {named} writes (VmRSS)",
        f"{shown} (peak {last[2] / 1024:.0f} MB)",
        f"{last[1] / first[1]:.2f}x after {first[0]:,} (goal <= 1.2x)",
    )
    refused = ", ".join(f"{n} x {why}" for why, n in sorted(failed.items())) or "none refused"
    row(
        f"serve: {writes:,} signed writes over HTTP, {clients} clients",
        f"{last[3]:.0f} s ({writes / last[3]:,.0f} writes/s), server CPU {last[4] / writes * 1000:.1f} ms a write",
        refused,
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.serve_memory", description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=100_000, help="writes in all (default 100,000)")
    parser.add_argument("--clients", type=int, default=CLIENTS, help=f"writers at once (default {CLIENTS})")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chronicle-serve-memory-") as folder:
        work = Path(folder)
        os.environ["CHRONICLE_HOME"] = str(work / "home")
        measure(work, options.writes, options.clients)


if __name__ == "__main__":
    main()
