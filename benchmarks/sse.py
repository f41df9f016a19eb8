"""`python -m benchmarks.sse [--db TARGET] [--clients 50]`: the table view's two rows.

1. `/events`: CLIENTS clients hold `/events` of a running `chronicle serve`; one event is appended by
   a `chronicle roll` process; the row is the time from the event's own timestamp (taken when it was
   decided, so before its commit: an upper bound) until the last client has its `data:` line, by this
   machine's clock. The goal: every client within 1 s.
2. A character page: the median (and slowest) of PAGES GETs of `/character/ID` of the ledger's
   first character over HTTP from the same server, after one warm-up. The goal: under 200 ms on a
   1M-event ledger (give one with --db, e.g. a 1M-event ledger imported from `benchmarks.generate`).

Without --db a small ledger is made in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import httpx

PAGES = 20


def chronicle(db: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "--db", db, *args],
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    if done.returncode != 0:
        raise SystemExit(f"chronicle {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def small_ledger(folder: Path) -> str:
    db = str(folder / "sse.db")
    chronicle(db, "campaign", "new", "Bench", "--system", "adnd2e")
    chronicle(db, "character", "add", "C0000", "--stat", "hp=30", "--stat", "level=3")
    return db


async def fan_out(address: str, db: str, character: str, clients: int) -> tuple[float, float, int]:
    """(seconds from the event's timestamp to the last client's line, the appending process's own
    seconds, the event's log position)."""
    received: list[float] = []
    events: dict[int, str] = {}
    ready = asyncio.Event()
    connected = 0

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal connected
        async with http.stream("GET", address + "/events") as stream:
            async for line in stream.aiter_lines():
                if line.startswith(": connected"):
                    connected += 1
                    if connected == clients:
                        ready.set()
                elif line.startswith("data: "):
                    received.append(time.time())
                    event = json.loads(line[len("data: ") :])
                    events[event["position"]] = event["time"]
                    return

    limits = httpx.Limits(max_connections=clients + 5)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        tasks = [asyncio.create_task(client(http)) for _ in range(clients)]
        await asyncio.wait_for(ready.wait(), 30)
        started = time.perf_counter()
        await asyncio.to_thread(chronicle, db, "roll", "d20", "--for", character, "--reason", "bench")
        exited = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
    assert len(received) == clients and len(events) == 1, "every client has the same one event"
    position, stamp = events.popitem()
    return max(received) - datetime.fromisoformat(stamp).timestamp(), exited - started, position


def page_times(address: str) -> tuple[float, float, str]:
    with httpx.Client(timeout=60) as http:
        home = http.get(address + "/").text
        path = next(  # the first character's readable address, /c/CAMPAIGN/NAME (not the campaign's log)
            found for found in re.findall(r'href="(/c/[^"/?]+/[^"/?]+)"', home) if not found.endswith("/log")
        )
        http.get(address + path)  # warm-up
        times = []
        for _ in range(PAGES):
            started = time.perf_counter()
            http.get(address + path).raise_for_status()
            times.append(time.perf_counter() - started)
    return statistics.median(times), max(times), path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a ledger to serve (default: a small one made here)")
    parser.add_argument("--clients", type=int, default=50)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chronicle-sse-") as folder:
        db = options.db or small_ledger(Path(folder))
        server = subprocess.Popen(
            [sys.executable, "-m", "chronicle.cli", "--db", db, "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            text=True,
            cwd=tempfile.gettempdir(),
        )
        try:
            assert server.stdout is not None
            first = server.stdout.readline()
            address = first.split(" at ")[1].split()[0].rstrip("/")
            median, slowest, path = page_times(address)
            heading = re.search(r"<h1>([^<]+)</h1>", httpx.get(address + path, timeout=60).text)
            assert heading is not None, "the character page has no heading"
            name = heading.group(1)
            late, append, events = asyncio.run(fan_out(address, db, name, options.clients))
        finally:
            server.terminate()
            server.communicate(timeout=30)
    print("| row | measured | goal |")
    print("|---|---|---|")
    print(
        f"| {options.clients} clients on /events, one event appended | last client {late * 1000:.0f} ms after the"
        f" event's timestamp (the appending process took {append * 1000:.0f} ms) | within 1 s |"
    )
    print(
        f"| character page ({events:,}-event ledger), over HTTP | median {median * 1000:.0f} ms, slowest"
        f" {slowest * 1000:.0f} ms of {PAGES} | under 200 ms |"
    )


if __name__ == "__main__":
    main()
