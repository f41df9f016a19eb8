"""`python -m benchmarks.load`: players writing at once through `chronicle serve --writes`, each write a
command document signed with the player's own Ed25519 key (`POST /api/commands`, as a page sends it),
while a few pages follow `/events`.

Two shapes:

- `table` (goal 1): PLAYERS players of one Potestas campaign on one SQLite ledger and one server, each
  writing for their own character (an injury, then a rest, and again) as fast as the answers come back.
  Goal: >= 150 writes/s held for the whole period, none lost (the log is counted afterwards: every
  answered write's event is there, and nothing else), none refused for a race, and every page's stream
  has every write within 1 s.
- `tables` (needs `--postgres URL`): CAMPAIGNS campaigns on one PostgreSQL database (made for the run and
  dropped after), WRITERS writers each a player of a share of them (writer w of campaigns w, w + WRITERS,
  ...), writer w sending to server w % SERVERS; each writer paced at `--rate` writes/s. By default 200
  campaigns, 20 writers, two servers; `--campaigns 1000 --writers 100 --servers 4` is the thousand tables.
  Goals: p99 of a write <= 100 ms; none lost or refused; every page of every server has every event within
  1 s; the servers' CPU <= 8 ms a write; the connections held to the database bounded (sampled from
  pg_stat_activity every SAMPLE s through the run, and counted at its end). Also reported: the writes a
  second offered (sent) beside those asked and those taken, how late the client sent them, the database's
  size and its growth a write, and PostgreSQL's own CPU a write where its processes are on this machine.

How it measures: the writers and the pages are one asyncio process here (a plain HTTP/1.1 client on
kept-alive connections, the documents signed just before they are sent); each server is its own
`chronicle serve --writes --port 0` process on 127.0.0.1. A write's time is from its request's first
byte to its answer's last. A page's lag is from the event's own timestamp (taken when it was decided,
so before its commit: an upper bound) to the page's `data:` line, by this machine's clock. The
servers' CPU is read from /proc. The per-key rate limit of `serve --writes` (a burst of 20, then 1 write
a second per key: Buckets in cli/web/security.py) is lifted in the servers this starts, since a player
writing 12 times a second is the load itself; `--keep-limit` keeps it. Requests are bounded in count
(MOST_RATE a second per writer) and in time (a write times out after TIMEOUT s, the whole run after its
period plus GRACE s), and the servers are stopped at the end whatever happened.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from .measure import row

MOST_RATE = 250  # writes a second one writer may send at most (bounds the run's requests)
TIMEOUT = 15.0  # seconds one write may take before it counts as failed
GRACE = 60.0  # seconds past the period the whole run may take (set-up and the last answers aside)
SAMPLE = 0.5  # seconds between two looks at the database's connections (tables)
SETTLE = 5.0  # seconds after the last write the pages have to show it
WINDOW = 5.0  # seconds of the slowest window the rate is held over
PAGE_GETS = 20  # GETs of a campaign's page after the writes
TICK = os.sysconf("SC_CLK_TCK")

SERVE = (  # `chronicle serve`, the per-key limit lifted unless LIMIT is set (see the module's docstring)
    "import os, sys\n"
    "if not os.environ.get('CHRONICLE_BENCH_LIMIT'):\n"
    "    from chronicle.cli.web import security\n"
    "    security.Buckets.__init__.__defaults__ = (1e9, 1e9, 4096)\n"
    "from chronicle.cli.main import main\n"
    "sys.argv[0] = 'chronicle'\n"
    "main()\n"
)


# the ledger -------------------------------------------------------------------------------------


@dataclass
class Writer:
    number: int
    key: Any  # chronicle.ledger.trust.identity.Identity
    parts: list[tuple[str, str]] = field(default_factory=list)  # (campaign id, character) it writes for
    server: int = 0


def prepare(target: str, campaigns: int, writers: int, servers: int) -> tuple[list[Writer], dict[str, str]]:
    """CAMPAIGNS Potestas campaigns, one character per pair (campaign i % CAMPAIGNS, writer i % WRITERS) for
    i below the larger of the two, each played by its writer (a participant with their own key); the gm is
    an identity made here. Returns the writers and the campaigns' names by id."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from chronicle.ledger.application.ledger import Ledger
    from chronicle.ledger.trust.identity import Identity

    team = [Writer(w, Identity(Ed25519PrivateKey.generate()), server=w % servers) for w in range(writers)]
    ledger = Ledger(target, by="gm", identity=Identity(Ed25519PrivateKey.generate()))
    names: dict[str, str] = {}
    try:
        ids = []
        for c in range(campaigns):
            name = f"T{c:03d}"
            ledger.campaign = None
            made = ledger.execute_document({"command": "campaign new", "name": name, "system": "potestas"})
            ids.append(made.document)
            names[str(ids[-1]["id"])] = name
        plays: dict[tuple[int, int], list[str]] = {}
        for i in range(max(campaigns, writers)):
            c, w = i % campaigns, i % writers
            ledger.campaign = f"T{c:03d}"
            character = f"C{i:03d}"
            ledger.execute_document({"command": "character add", "name": character, "stat": ["fort=40"]})
            plays.setdefault((c, w), []).append(character)
            team[w].parts.append((str(ids[c]["id"]), character))
        for (c, w), characters in sorted(plays.items()):
            ledger.campaign = f"T{c:03d}"
            document = {"command": "participant add", "name": f"P{w:02d}", "role": "player", "plays": characters}
            ledger.execute_document({**document, "key": team[w].key.public_key_text})
    finally:
        ledger.close()
    return team, names


def logged_after(target: str, after: int) -> list[str]:
    """The ids of the events the log holds after position AFTER, in log order."""
    from uuid import UUID

    from chronicle.domain.ids import event_id
    from chronicle.ledger.store.chronicle import open_ledger

    app = open_ledger(target)
    try:
        found: list[str] = []
        while True:
            page = app.recorder.select_notifications(start=after, limit=10000, inclusive_of_start=False)
            if not page:
                return found
            found += [event_id(UUID(str(n.originator_id)), n.originator_version) for n in page]
            after = page[-1].id
    finally:
        app.close()


def last_position(target: str) -> int:
    from chronicle.ledger.store.chronicle import open_ledger

    app = open_ledger(target)
    try:
        return app.recorder.max_notification_id() or 0
    finally:
        app.close()


# the database -----------------------------------------------------------------------------------


@dataclass
class Look:
    """The database at one moment: the client connections to it, the CPU seconds each PostgreSQL process had
    used (by pid, those of this machine only), and the database's size in bytes."""

    connections: int
    cpu: dict[int, float]
    size: int


class Watch:
    """A PostgreSQL database while the servers run: the client connections to it, counted every SAMPLE s from
    pg_stat_activity (the watch's own aside), its size when asked, and, where the server is on this machine,
    the CPU of its processes (this database's backends and the server's own background processes, such as
    the WAL writer and the checkpointer) read from /proc."""

    def __init__(self, target: str):
        import psycopg

        self.connection = psycopg.connect(target, autocommit=True)
        host = self.connection.info.host
        self.local = host.startswith("/") or host in ("127.0.0.1", "localhost", "::1")
        self.counts: list[int] = []
        self.cpu: dict[int, float] = {}  # the CPU seconds each process had when last seen
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.first = self.look()
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self) -> None:
        while not self.stopping.wait(SAMPLE):
            self.sample()

    def sample(self) -> int:
        with self.lock:
            found = self.connection.execute(
                "SELECT pid, backend_type = 'client backend' AND datname IS NOT NULL FROM pg_stat_activity"
                " WHERE (datname = current_database() OR datname IS NULL) AND pid <> pg_backend_pid()"
            ).fetchall()
            self.counts.append(sum(1 for _, client in found if client))
            if self.local:
                for pid, _ in found:
                    used = postgres_cpu(pid)
                    if used is not None:
                        self.cpu[pid] = used
            return self.counts[-1]

    def look(self) -> Look:
        connections = self.sample()
        with self.lock:
            size = self.connection.execute("SELECT pg_database_size(current_database())").fetchone()
            return Look(connections, dict(self.cpu), int(size[0]) if size else 0)

    def stop(self) -> None:
        if not self.stopping.is_set():
            self.stopping.set()
            self.thread.join()
            self.connection.close()


def postgres_cpu(pid: int) -> float | None:
    """CPU seconds (user and system) of PostgreSQL's process PID on this machine; None if it is not one."""
    try:
        if Path(f"/proc/{pid}/comm").read_text().strip() != "postgres":
            return None
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


@dataclass
class Watched:
    """What the watch saw of the database over a run."""

    counts: list[int]  # client connections at each look, from the servers' start to the end
    at_start: int  # at the measured period's start (the servers up, the pages following, warmed up)
    held: int  # at the end, the servers still up
    size: int  # bytes at the end
    grew: int  # bytes the database grew by from before the first write to the end
    cpu: float | None  # CPU seconds of PostgreSQL's processes over the measured period (None: not on this machine)


def used_between(first: Look, last: Look) -> float:
    """CPU seconds PostgreSQL's processes used from FIRST to LAST (a process started between counts whole)."""
    return sum(max(0.0, used - first.cpu.get(pid, 0.0)) for pid, used in last.cpu.items())


# the servers ------------------------------------------------------------------------------------


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    errors: Path

    def cpu(self) -> float:
        """CPU seconds the process has used (user and system)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK


def start(target: str, work: Path, number: int, limit: bool) -> Server:
    errors = work / f"serve-{number}.err"
    env = dict(os.environ, CHRONICLE_BENCH_LIMIT="1" if limit else "")
    command = [sys.executable, "-c", SERVE, "--db", target, "serve", "--writes", "--host", "127.0.0.1", "--port", "0"]
    with errors.open("wb") as err:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, env=env, cwd=work)
    assert process.stdout is not None
    first = process.stdout.readline().decode()  # "Serving ... at http://127.0.0.1:PORT/ (Ctrl-C stops)."
    if " at http://" not in first:
        stop(process)
        raise SystemExit(f"serve did not start: {first.strip()} {errors.read_text()[-2000:]}")
    port = int(first.split(" at http://")[1].split("/")[0].rsplit(":", 1)[1])
    return Server(process, port, errors)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
    if process.stdout is not None:
        process.stdout.close()


# the clients ------------------------------------------------------------------------------------


class Http:
    """One kept-alive HTTP/1.1 connection to 127.0.0.1:PORT, a request at a time."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        if self.writer is not None and time.monotonic() - self.used > 2:  # (uvicorn closes idle ones after 5 s)
            self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        status, headers = await read_head(self.reader)
        if "content-length" in headers:
            answer = await self.reader.readexactly(int(headers["content-length"]))
        else:
            answer = b"".join([chunk async for chunk in chunks(self.reader)])
        self.used = time.monotonic()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    line = await reader.readline()
    if not line:
        raise ConnectionError("the server closed the connection")
    status = int(line.split()[1])
    headers: dict[str, str] = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return status, headers
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


async def chunks(reader: asyncio.StreamReader) -> Any:
    """The chunks of a chunked body, as they come."""
    while True:
        size = int((await reader.readline()).split(b";")[0], 16)
        if size == 0:
            await reader.readline()
            return
        yield (await reader.readexactly(size + 2))[:-2]


@dataclass
class Page:
    """A page following one server's `/events`: when each event's line came, by the event's id."""

    server: int
    seen: dict[str, float] = field(default_factory=dict)  # event id: seconds from its timestamp to its line
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    async def follow(self, port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            status, _ = await read_head(reader)
            if status != 200:
                raise SystemExit(f"/events answered {status}")
            async for chunk in chunks(reader):
                for line in chunk.split(b"\n"):
                    if line.startswith(b": connected"):
                        self.ready.set()
                    elif line.startswith(b"data: "):
                        now = time.time()
                        event = orjson.loads(line[6:])
                        self.seen[event["id"]] = now - datetime.fromisoformat(event["time"]).timestamp()
        finally:
            writer.close()


@dataclass
class Write:
    writer: int
    server: int
    sent: float
    took: float
    status: int
    event: str | None
    code: str | None = None
    late: float = 0.0  # seconds its request was sent after its beat (a paced writer's): the client behind


DOCUMENTS = (
    lambda name: {"command": "injure", "name": name, "damage": 3, "save_roll": 15},
    lambda name: {"command": "rest", "name": name, "hours": 24},
)


async def write_for(
    writer: Writer, port: int, until: float, most: int, rate: float, done: list[Write], measured: bool
) -> None:
    """WRITER's writes, one at a time (at most MOST, none sent after UNTIL), paced at RATE a second (0: as
    fast as the answers come back), each writer's beat at its own phase (not all at once)."""
    from chronicle.ledger.trust.signing import sign

    http = Http(port)
    began = time.perf_counter() + (writer.number * 0.618034 % 1 / rate if rate else 0)  # the writers out of step
    try:
        for n in range(most):
            due = 0.0
            if rate:
                due = began + n / rate
                if due > until:
                    return
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if time.perf_counter() >= until:
                return
            campaign, character = writer.parts[n % len(writer.parts)]
            document = DOCUMENTS[(n // len(writer.parts)) % 2](character)
            nonce = f"w{writer.number}-{'m' if measured else 'w'}{n}"
            signed = sign(writer.key, campaign, document, nonce)
            body = orjson.dumps({"campaign": campaign, **signed.model_dump()})
            sent = time.perf_counter()
            late = max(0.0, sent - due) if rate else 0.0
            try:
                status, answer = await asyncio.wait_for(http.request("POST", "/api/commands", body), TIMEOUT)
            except (TimeoutError, ConnectionError, OSError, asyncio.IncompleteReadError, ValueError) as problem:
                http.close()
                took = time.perf_counter() - sent
                done.append(Write(writer.number, writer.server, sent, took, 0, None, repr(problem), late))
                continue
            took = time.perf_counter() - sent
            reply = orjson.loads(answer) if answer else {}
            event = reply.get("event") if status == 200 else None
            error = reply.get("error", {}) if status != 200 else {}
            code = f"{error.get('code')}: {error.get('message')}" if status != 200 else None
            done.append(Write(writer.number, writer.server, sent, took, status, event, code, late))
    finally:
        http.close()


@dataclass
class Result:
    writes: list[Write]
    seconds: float
    pages: list[Page]
    logged: list[str]
    cpu: list[float]  # CPU seconds of each server over the measured period, then of this process's clients
    warm: list[Write]
    page: list[float]  # seconds of each GET of the first campaign's page, after the writes
    asked: float = 0.0  # writes a second the writers were asked for (0: flat out)
    database: Watched | None = None  # PostgreSQL only

    @property
    def ok(self) -> list[Write]:
        return [w for w in self.writes if w.status == 200]

    def rate(self) -> float:
        return len(self.ok) / self.seconds

    def offered(self) -> float:
        """Writes a second the client sent (answered or not)."""
        return len(self.writes) / self.seconds

    def late(self, p: float) -> float:
        times = sorted(w.late for w in self.writes)
        return times[min(len(times) - 1, math.ceil(len(times) * p / 100) - 1)] if times else float("nan")

    def slowest_window(self) -> float:
        """Writes a second in the slowest whole WINDOW of the period (by when each write's answer came)."""
        if not self.ok:
            return 0.0
        start = min(w.sent for w in self.writes)
        windows = max(1, int(self.seconds // WINDOW))
        counts = [0] * windows
        for w in self.ok:
            at = int((w.sent + w.took - start) // WINDOW)
            if at < windows:
                counts[at] += 1
        return min(counts) / WINDOW

    def percentile(self, p: float) -> float:
        times = sorted(w.took for w in self.ok)
        return times[min(len(times) - 1, math.ceil(len(times) * p / 100) - 1)] if times else float("nan")

    def refused(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for w in self.writes + self.warm:
            if w.status != 200:
                key = f"{w.status} {(w.code or '')[:80]}"
                found[key] = found.get(key, 0) + 1
        return found

    def lost(self) -> tuple[int, int]:
        """(answered writes whose event is not in the log, events in the log no answered write made)."""
        answered = {w.event for w in self.ok + [w for w in self.warm if w.status == 200]}
        logged = set(self.logged)
        return len(answered - logged), len(logged - answered)

    def lags(self) -> tuple[int, list[float]]:
        """(events some page never had, every page's lag of every event it had)."""
        missing, lags = 0, []
        for page in self.pages:
            for event in self.logged:
                if event in page.seen:
                    lags.append(page.seen[event])
                else:
                    missing += 1
        return missing, lags


async def page_times(port: int) -> list[float]:
    """Seconds of each of PAGE_GETS GETs of the first campaign's page, after the writes (and one first GET)."""
    http, times = Http(port), []
    try:
        for n in range(PAGE_GETS + 1):
            started = time.perf_counter()
            status, _ = await asyncio.wait_for(http.request("GET", "/c/T000"), TIMEOUT)
            if status != 200:
                raise SystemExit(f"the campaign page answered {status}")
            if n:
                times.append(time.perf_counter() - started)
    finally:
        http.close()
    return times


@dataclass
class Period:
    writes: list[Write]
    warm: list[Write]
    seconds: float
    pages: list[Page]
    cpu: list[float]
    page: list[float]
    marks: tuple[Look, Look] | None  # the database at the period's start and at its end


async def run(
    servers: list[Server], team: list[Writer], seconds: float, rate: float, pages_per_server: int, watch: Watch | None
) -> Period:
    pages = [Page(s) for s in range(len(servers)) for _ in range(pages_per_server)]
    following = [asyncio.create_task(p.follow(servers[p.server].port)) for p in pages]
    try:
        await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in pages)), 30)
        warm: list[Write] = []  # two writes each first: every server's first requests, connections and caches
        far = time.perf_counter() + 60
        await asyncio.gather(*(write_for(w, servers[w.server].port, far, 2, 0, warm, False) for w in team))
        writes: list[Write] = []
        start = watch.look() if watch else None
        cpu = [s.cpu() for s in servers]
        mine = time.process_time()
        began = time.perf_counter()
        until = began + seconds
        most = max(1, math.ceil(seconds * (rate or MOST_RATE)))
        await asyncio.gather(*(write_for(w, servers[w.server].port, until, most, rate, writes, True) for w in team))
        ended = time.perf_counter()
        cpu = [s.cpu() - before for s, before in zip(servers, cpu, strict=True)] + [time.process_time() - mine]
        marks = (start, watch.look()) if watch and start else None
        answered = {w.event for w in writes + warm if w.status == 200}
        settle = time.perf_counter() + SETTLE
        while time.perf_counter() < settle and any(answered - set(p.seen) for p in pages):
            await asyncio.sleep(0.05)
        return Period(writes, warm, ended - began, pages, cpu, await page_times(servers[0].port), marks)
    finally:
        for task in following:
            task.cancel()
        await asyncio.gather(*following, return_exceptions=True)


def load(
    target: str,
    work: Path,
    *,
    campaigns: int,
    writers: int,
    servers: int,
    seconds: float,
    rate: float = 0,
    pages: int = 3,
    limit: bool = False,
) -> Result:
    """Prepare the ledger, start the servers, run the writers and the pages, stop the servers, count the log."""
    from chronicle.ledger.store.targets import is_postgres

    began = time.perf_counter()
    team, _ = prepare(target, campaigns, writers, servers)
    took, plural = time.perf_counter() - began, "s" if campaigns != 1 else ""
    print(f"(prepared {campaigns:,} campaign{plural} for {writers:,} writers in {took:.0f} s)", flush=True)
    before = last_position(target)
    started: list[Server] = []
    watch = Watch(target) if is_postgres(target) else None
    database = None
    try:
        for number in range(servers):
            started.append(start(target, work, number, limit))
        period = asyncio.run(asyncio.wait_for(run(started, team, seconds, rate, pages, watch), seconds + GRACE))
        if watch is not None and period.marks:
            first, last = period.marks
            end = watch.look()
            cpu = used_between(first, last) if watch.local else None
            grew = end.size - watch.first.size
            database = Watched(list(watch.counts), first.connections, end.connections, end.size, grew, cpu)
    finally:
        if watch is not None:
            watch.stop()
        for server in started:
            stop(server.process)
    for server in started:
        said = server.errors.read_text().strip()
        if said:
            print(f"server {server.errors.name} said:\n{said[-3000:]}", file=sys.stderr)
    logged = logged_after(target, before)
    return Result(
        period.writes, period.seconds, period.pages, logged, period.cpu, period.warm, period.page, rate, database
    )


def verdict(goal: str, met: bool) -> str:
    return f"goal {goal}: {'met' if met else 'not met'}"


def report(result: Result, label: str, goal_rate: float | None, goal_p99: float | None, goal_cpu: float | None) -> None:
    ok = result.ok
    p50, p99 = result.percentile(50) * 1000, result.percentile(99) * 1000
    window = f"slowest {WINDOW:.0f} s: {result.slowest_window():,.1f}/s"
    if result.asked:  # paced: what was asked, what the client sent, what the servers took
        asked = result.asked * len({w.writer for w in result.writes + result.warm})
        offered, taken = result.offered(), result.rate()
        row(
            f"{label}: writes",
            f"{taken:,.1f} writes/s taken of {offered:,.1f}/s offered ({asked:,.0f}/s asked); {len(ok):,} in"
            f" {result.seconds:.0f} s ({window})",
            verdict(f"{asked:,.0f} writes/s offered and taken", offered >= 0.98 * asked and taken >= 0.98 * asked),
        )
        row(
            f"{label}: the client",
            f"a write sent p99 {result.late(99) * 1000:.0f} ms, at most {result.late(100) * 1000:.0f} ms after its"
            f" beat; {result.cpu[-1] / result.seconds:.0%} of a core",
            "one process (writers, pages, watch); a writer sends its next write once answered",
        )
    else:
        rate = result.rate()
        row(
            f"{label}: writes",
            f"{rate:,.0f} writes/s ({window}), {len(ok):,} in {result.seconds:.0f} s",
            verdict(f">= {goal_rate:.0f} writes/s", rate >= goal_rate) if goal_rate else "",
        )
    row(
        f"{label}: a write, p50 / p99",
        f"{p50:.1f} / {p99:.1f} ms",
        verdict(f"p99 <= {goal_p99:.0f} ms", p99 <= goal_p99) if goal_p99 else "",
    )
    missing, extra = result.lost()
    refused = result.refused()
    said = ", ".join(f"{n} x {why}" for why, n in sorted(refused.items())) or "none refused"
    row(
        f"{label}: lost / refused",
        f"{missing} lost, {extra} unanswered in the log (of {len(result.logged):,} logged); {said}",
        verdict("none lost, none refused", not missing and not extra and not refused),
    )
    unseen, lags = result.lags()
    ordered = sorted(lags)
    last = ordered[-1] if lags else float("nan")
    p99_lag = ordered[min(len(lags) - 1, math.ceil(len(lags) * 0.99) - 1)] if lags else float("nan")
    row(
        f"{label}: {len(result.pages)} pages on /events, a live update's lag",
        f"{unseen} unseen; max {last * 1000:.0f} ms, p99 {p99_lag * 1000:.0f},"
        f" median {statistics.median(lags) * 1000 if lags else float('nan'):.0f}",
        verdict("every event on every page within 1 s", not unseen and bool(lags) and last <= 1.0),
    )
    cpu, clients, writes = sum(result.cpu[:-1]), result.cpu[-1], max(1, len(ok))
    database = result.database
    theirs = ""
    if database is not None and database.cpu is not None:
        theirs = f", PostgreSQL {database.cpu / writes * 1000:.1f} ms ({database.cpu:.1f} CPU-s)"
    row(
        f"{label}: CPU per write",
        f"servers {cpu / writes * 1000:.1f} ms ({cpu:.1f} CPU-s){theirs}, the client {clients / writes * 1000:.1f} ms",
        (verdict(f"servers <= {goal_cpu:g} ms", cpu / writes * 1000 <= goal_cpu) + "; " if goal_cpu else "")
        + f"of the {(os.cpu_count() or 1) * result.seconds:.0f} CPU-s {os.cpu_count()} cores had",
    )
    row(
        f"{label}: a campaign's page (GET /c/T000)",
        f"median {statistics.median(result.page) * 1000:.0f} ms, slowest {max(result.page) * 1000:.0f} ms"
        f" of {len(result.page)}",
    )
    if database is not None:
        servers = len(result.cpu) - 1
        most = max(database.counts)
        row(
            f"{label}: connections the servers hold",
            f"{database.held} at the end, at most {most} during the run ({database.at_start} when the writes began;"
            f" {len(database.counts)} looks, every {SAMPLE:g} s): {most / servers:.1f} a server at most",
            verdict("bounded (no more under load than when the writes began)", most <= database.at_start),
        )
        every = len(ok) + len([w for w in result.warm if w.status == 200])
        row(
            f"{label}: the database's size",
            f"{database.size / 1e6:,.1f} MB at the end; grew {database.grew / 1e6:,.1f} MB over {every:,} writes:"
            f" {database.grew / max(1, every) / 1000:.1f} KB a write",
            "pg_database_size, from before the first write (its indexes and free space included)",
        )


def table(work: Path, seconds: float, players: int = 12, pages: int = 3, servers: int = 1, limit: bool = False) -> None:
    """Goal 1: PLAYERS players of one campaign on one SQLite ledger."""
    result = load(
        str(work / "load.db"),
        work,
        campaigns=1,
        writers=players,
        servers=servers,
        seconds=seconds,
        pages=pages,
        limit=limit,
    )
    shown = f"{servers} servers" if servers > 1 else "one server"
    report(result, f"load: {players} players, one SQLite ledger, {shown}", 150, None, None)


def tables(
    server: str,
    work: Path,
    seconds: float,
    campaigns: int = 200,
    writers: int = 20,
    rate: float = 1.0,
    pages: int = 3,
    limit: bool = False,
    servers: int = 2,
) -> None:
    """CAMPAIGNS campaigns, WRITERS writers at RATE writes/s each, SERVERS servers, one fresh PostgreSQL
    database (dropped after)."""
    from .postgres import databases

    with databases(server, ["tables"]) as url:
        started = time.perf_counter()
        result = load(
            url["tables"],
            work,
            campaigns=campaigns,
            writers=writers,
            servers=servers,
            seconds=seconds,
            rate=rate,
            pages=pages,
            limit=limit,
        )
        shown = f"{servers} servers" if servers != 1 else "one server"
        label = f"PostgreSQL: {campaigns:,} campaigns, {writers} writers at {rate:g}/s, {shown}"
        report(result, label, None, 100, 8)
        print(f"(set-up and run: {time.perf_counter() - started:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.load",
        description=__doc__.split("\n\n")[0],
        epilog="The thousand tables: python -m benchmarks.load tables --postgres URL --campaigns 1000 --writers 100"
        " --servers 4",
    )
    parser.add_argument("shape", choices=["table", "tables", "both"], nargs="?", default="table")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured period (default 60)")
    parser.add_argument("--quick", action="store_true", help="a 10-second period")
    parser.add_argument("--players", type=int, default=12, help="table: players of the one campaign (12)")
    parser.add_argument(
        "--servers", type=int, help="serve processes: table on the one SQLite ledger (1), tables on PostgreSQL (2)"
    )
    parser.add_argument("--pages", type=int, default=3, help="pages following /events on each server (3)")
    parser.add_argument(
        "--postgres",
        metavar="URL",
        default=os.environ.get("CHRONICLE_TEST_POSTGRES"),
        help="tables: a PostgreSQL server to make its database on ($CHRONICLE_TEST_POSTGRES)",
    )
    parser.add_argument("--campaigns", type=int, default=200, help="tables: campaigns on the one database (200)")
    parser.add_argument("--writers", type=int, default=20, help="tables: writers, each a player of a share (20)")
    parser.add_argument("--rate", type=float, default=1.0, help="tables: writes a second per writer (1; 0: flat out)")
    parser.add_argument("--keep-limit", action="store_true", help="keep serve's per-key rate limit")
    options = parser.parse_args()
    seconds = 10.0 if options.quick else options.seconds
    with tempfile.TemporaryDirectory(prefix="chronicle-load-") as folder:
        work = Path(folder)
        os.environ["CHRONICLE_HOME"] = str(work / "home")
        if options.shape in ("table", "both"):
            table(work, seconds, options.players, options.pages, options.servers or 1, options.keep_limit)
        if options.shape in ("tables", "both"):
            if not options.postgres:
                raise SystemExit("tables needs --postgres URL (or CHRONICLE_TEST_POSTGRES)")
            tables(
                options.postgres,
                work,
                seconds,
                options.campaigns,
                options.writers,
                options.rate,
                options.pages,
                options.keep_limit,
                options.servers or 2,
            )


if __name__ == "__main__":
    main()
