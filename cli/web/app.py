"""The table view's ASGI app: server-rendered pages, `/events`, the witness's `/checkpoint` and `/proof`
(web/witness.py), and, with `serve --writes`, the signed writes of web/writes.py.

Every page can be shown as of an earlier event (`?as_of=#N`: a position, also an event id or an
ISO time), and as its `<main>` alone (`?fragment=1`), which is what the page's script fetches
when `/events` says something changed; and as the data it shows (`Accept: application/json`). The pages are
one module each (web/pages/).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from .limits import Descriptors, quiet_when_exhausted
from .live import COME_BACK, STREAMS, Hub, Once
from .pages import HERE, READS, Site, templates
from .pages import campaigns as campaign_pages
from .pages import character as character_pages
from .pages import corrections as correction_pages
from .pages import fair as fair_pages
from .pages import log as log_pages
from .reading import Reading
from .security import Headers
from .witness import Witness

if TYPE_CHECKING:
    from .writes import Writer


class ReadOnly:
    """Every method but GET and HEAD is 405, on every path but `writes` (POST there: `serve --writes`)."""

    def __init__(self, app: ASGIApp, writes: tuple[str, ...] = ()):
        self.app, self.writes = app, writes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        wrote = scope["type"] == "http" and scope["method"] == "POST" and scope["path"] in self.writes
        if scope["type"] == "http" and scope["method"] not in READS and not wrote:
            response = PlainTextResponse("This view is read-only.\n", status_code=405, headers={"Allow": "GET, HEAD"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def build(data: Reading, say: Callable[[str], None], streams: int = STREAMS, writes: Writer | None = None) -> Starlette:
    """The app for one ledger; `say` prints one line on the terminal; at most `streams` clients follow
    `/events` at once (web/limits.py); `writes`: the writer of `serve --writes` (web/writes.py)."""
    env = templates()
    env.globals["writes"] = writes is not None
    once = Once(say)
    crowded = Once(say, "connections are accepted again", settle=5)  # (not after each of a flood's lulls)
    hub = Hub(data, once, streams)

    site = Site(env, data, once, say)

    async def favicon(request: Request) -> Response:
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")

    async def events(request: Request) -> Response:
        if hub.full:
            return PlainTextResponse(
                f"This table view follows at most {hub.most:,} live pages at once; try again later.\n",
                status_code=503,
                headers={"Retry-After": str(COME_BACK)},
            )
        return StreamingResponse(
            hub.stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        asyncio.get_running_loop().set_exception_handler(quiet_when_exhausted(crowded))
        await hub.start()
        yield
        await hub.stop()
        witness.close()

    witness = Witness(data.target, once.problem)
    app = Starlette(
        routes=[
            *campaign_pages.routes(site),
            *character_pages.routes(site),
            *log_pages.routes(site),
            *fair_pages.routes(site),
            *correction_pages.routes(site),
            Route("/favicon.ico", favicon, methods=list(READS)),
            Route("/events", events, methods=list(READS)),
            *witness.routes(),
            *(writes.routes(site.render) if writes is not None else []),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.add_middleware(ReadOnly, writes=("/api/commands",) if writes is not None else ())
    app.add_middleware(Descriptors, once=crowded)
    app.add_middleware(Headers)  # outermost: on every answer
    return app
