"""Following the log for `/events`: ONE background task for all clients, fanning each new event out,
to at most `most` clients at once (each holds a connection, and so a file descriptor, for as long as it
follows): past that a new one is told to come back later.

SQLite has no way to wake another process, so the task polls the log's highest position (one
indexed `MAX(rowid)`, every POLL seconds). PostgreSQL wakes it (ledger/store/appends.py: a trigger made
when `serve` starts NOTIFYs, the task LISTENs, re-checking every RECHECK seconds in case a notification
was missed). Where the trigger cannot be made (a role without the right), it polls too.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable

import orjson
from starlette.concurrency import run_in_threadpool

from ...ledger.application.failures import first_line
from ...ledger.application.opened import appends, notify_appends
from ...ledger.application.queries.pages import Appended
from .reading import LedgerUnavailable, Reading

POLL = 0.25  # seconds between looks at SQLite's log
RECHECK = 5.0  # seconds PostgreSQL's listener waits for a notification before looking anyway
BACKLOG = 10000  # lines a slow client may fall behind before it is dropped (its browser reconnects)
STREAMS = 1000  # clients followed at once, unless `serve` sets fewer (its file descriptors allow fewer)
COME_BACK = 60  # seconds a client turned away waits before trying again


class Once:
    """One line on the terminal when a problem starts (and `recovered` when it is over, once it has not
    happened again for `settle` seconds), not one per request or look."""

    def __init__(self, say: Callable[[str], None], recovered: str = "the ledger can be read again", settle: float = 0):
        self.say, self.recovered, self.settle = say, recovered, settle
        self.last, self.since = "", 0.0

    def problem(self, text: str) -> None:
        self.since = time.monotonic()
        if text != self.last:
            self.say(text)
            self.last = text

    def fine(self) -> None:
        if self.last and time.monotonic() - self.since >= self.settle:
            self.say(self.recovered)
            self.last = ""


class Hub:
    def __init__(self, data: Reading, once: Once, most: int = STREAMS):
        self.data, self.once, self.most = data, once, most
        self.clients: set[asyncio.Queue[bytes | None]] = set()
        self.last = 0
        self.listening = False
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        try:
            self.last = await run_in_threadpool(self._last)
        except LedgerUnavailable as problem:
            self.once.problem(str(problem))
        if self.data.postgres:
            self.listening = await run_in_threadpool(self._ensure_trigger)
        self._task = asyncio.create_task(self._follow())

    async def stop(self) -> None:
        """End every stream (uvicorn waits for open responses before it stops) and the follower."""
        for queue in list(self.clients):
            queue.put_nowait(None)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def full(self) -> bool:
        return len(self.clients) >= self.most

    async def stream(self) -> AsyncIterator[bytes]:
        """One client's `text/event-stream`: a `data:` line per event appended after it connected. (`/events`
        turns clients away once the hub is full; one that got past it meanwhile is told to retry later.)"""
        if self.full:
            yield f"retry: {COME_BACK * 1000}\n: too many live pages; try again later\n\n".encode()
            return
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(BACKLOG)
        self.clients.add(queue)
        try:
            yield b": connected\n\n"
            while True:
                try:
                    line = await asyncio.wait_for(queue.get(), timeout=15)
                except TimeoutError:
                    yield b": still here\n\n"  # a write is how a vanished client is noticed
                    continue
                if line is None:
                    return
                yield line
        finally:
            self.clients.discard(queue)

    def publish(self, rows: list[dict]) -> None:
        for row in rows:
            line = b"data: " + orjson.dumps(row) + b"\n\n"
            for queue in list(self.clients):
                try:
                    queue.put_nowait(line)
                except asyncio.QueueFull:
                    self.clients.discard(queue)
                    queue.get_nowait()
                    queue.put_nowait(None)

    async def _follow(self) -> None:
        async for _ in self._wakes():
            try:
                await self._catch_up()
            except LedgerUnavailable as problem:
                self.once.problem(str(problem))
                await asyncio.sleep(1)
            else:
                self.once.fine()

    async def _catch_up(self) -> None:
        """Publish everything after the last position seen (a page at a time), or just note where the
        log ends when nobody listens."""
        newest = await run_in_threadpool(self._last)
        while newest > self.last:
            if not self.clients:
                self.last = newest
                return
            rows = await run_in_threadpool(self._after, self.last)
            if not rows:
                return
            self.publish(rows)
            self.last = rows[-1]["position"]

    def _last(self) -> int:
        last: int = self.data.ask(Appended()).document["last"]
        return last

    def _after(self, position: int) -> list[dict]:
        rows: list[dict] = self.data.ask(Appended(after=position)).document["events"]
        return rows

    async def _wakes(self) -> AsyncIterator[None]:
        while True:
            if self.listening:
                try:
                    async for _ in self._notifications():
                        yield
                except Exception as problem:  # the server went away: poll until it is back
                    self.once.problem(
                        f"listening for new events failed ({first_line(problem)}); looking every second instead"
                    )
            await asyncio.sleep(POLL if not self.listening else 1.0)
            yield

    async def _notifications(self) -> AsyncIterator[None]:
        async for _ in appends(self.data.target, RECHECK):
            yield

    def _ensure_trigger(self) -> bool:
        """The NOTIFY trigger, made unless it is there; False, and a line on the terminal, when this role may not."""
        try:
            notify_appends(self.data.target)
        except Exception as problem:
            self.once.say(f"live updates will poll the log: cannot add the notify trigger ({first_line(problem)})")
            return False
        return True
