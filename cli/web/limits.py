"""Keeping `serve` within its file descriptors: each connection holds one, and a page that follows the log
holds its connection for as long as it is open.

`serve` raises its soft limit to the hard one, then shares what it has: RESERVE for the ledger (its
database files and connections) and the process; of the rest, at most half for `/events` streams (past
that a clear 503) and the others for pages, with room for one batch of accepted connections on top
(uvicorn answers 503 past its connection limit, and the event loop accepts up to `backlog` connections
at a time). Should the descriptors run out all the same, a refused accept or a request that cannot open
a file is one line on the terminal, never a traceback a connection, and the server goes on once
connections close.
"""

from __future__ import annotations

import asyncio
import errno
import resource
from dataclasses import dataclass
from typing import Any

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .live import COME_BACK, STREAMS, Once

RESERVE = 64  # descriptors kept for the ledger and the process itself
MOST = 65536  # the soft limit is raised to the hard one, up to this
EXHAUSTED = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


@dataclass(frozen=True)
class Room:
    descriptors: int  # the soft limit in force
    streams: int  # `/events` clients at once
    connections: int  # connections at once (uvicorn's `limit_concurrency`)
    backlog: int  # connections waiting to be accepted, and accepted at a time


def room() -> Room:
    """What this process may hold, its soft limit first raised as far as the hard one allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST if hard == resource.RLIM_INFINITY else min(hard, MOST)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):  # not allowed here: live within the soft limit
            pass
    descriptors = MOST if soft == resource.RLIM_INFINITY else soft
    spare = max(descriptors - RESERVE, 16)
    backlog = max(4, min(128, spare // 4))
    connections = max(8, spare - backlog)
    return Room(descriptors, max(2, min(STREAMS, connections // 2)), connections, backlog)


def descriptors() -> int:
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return MOST if soft == resource.RLIM_INFINITY else soft


def exhausted(problem: BaseException | None) -> bool:
    """Whether the problem is running out of descriptors (or the buffers and memory a socket needs)."""
    return isinstance(problem, OSError) and problem.errno in EXHAUSTED


def out_of_descriptors() -> str:
    return (
        f"out of file descriptors (this process may hold {descriptors():,}): new connections wait until some"
        " close; `ulimit -n` raises the limit"
    )


def quiet_when_exhausted(once: Once) -> Any:
    """An event loop exception handler: a refused accept (the loop tries again a second later) is one line,
    every other problem goes to the loop's own handler."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if exhausted(context.get("exception")):
            once.problem(out_of_descriptors())
            return
        loop.default_exception_handler(context)

    return handle


class Descriptors:
    """A request that fails for want of descriptors (a page, a static file) is a 503 and one line on the
    terminal, not a traceback; the next one that succeeds says connections are accepted again."""

    def __init__(self, app: ASGIApp, once: Once):
        self.app, self.once = app, once

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except OSError as problem:
            if not exhausted(problem):
                raise
            self.once.problem(out_of_descriptors())
            if not started:
                busy = PlainTextResponse(
                    "The table view has too many connections open; try again in a moment.\n",
                    status_code=503,
                    headers={"Retry-After": str(COME_BACK)},
                )
                await busy(scope, receive, send)
            return
        self.once.fine()
