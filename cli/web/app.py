"""The table view's ASGI app: server-rendered pages, `/events`, the witness's `/checkpoint` and `/proof`
(web/witness.py), and, with `serve --writes`, the signed writes of web/writes.py.

Every page can be shown as of an earlier event (`?as_of=#N`: a position, also an event id or an
ISO time), and as its `<main>` alone (`?fragment=1`), which is what the page's script fetches
when `/events` says something changed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote_to_bytes

import jinja2
import markupsafe
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ...domain.errors import BadInput, NotFound
from ...domain.explain import state_words
from ...domain.limits import INT64_MAX
from ...domain.pendragon.increases import next_increase_at
from ...domain.text import printable
from ...ledger.application.failures import failure
from ...ledger.application.names import matching
from ...ledger.application.queries.pages import CampaignPage, CharacterAddress, CharacterPage, LogPage
from ..chart import MOST_POINTS, status_chart
from ..html import struck_html
from .fair import FairDice
from .limits import Descriptors, quiet_when_exhausted
from .live import COME_BACK, STREAMS, Hub, Once
from .reading import LedgerUnavailable, Reading
from .security import Headers
from .witness import Witness

if TYPE_CHECKING:
    from .writes import Writer

HERE = Path(__file__).parent
READS = ("GET", "HEAD")


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


def templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["plain"] = plain
    env.filters["shown"] = shown
    env.filters["struck"] = lambda text: markupsafe.Markup(  # escaped in the making, as Jinja escapes
        struck_html(str(text), lambda said: str(markupsafe.escape(said)))
    )
    env.filters["part"] = lambda name: quote(str(name), safe="")  # a name as one segment of a readable URL
    env.globals["status_chart"] = lambda series: markupsafe.Markup(status_chart(series))  # escaped in the making
    env.globals["next_increase_at"] = next_increase_at
    env.globals["state_words"] = state_words  # a state in words on its badge (its class keeps the identifier)
    return env


def whole(query: QueryParams, name: str, what: str) -> int | None:
    """A query parameter that is a whole number from 1 (a log position, a session's number): None when
    absent or empty; anything else, a digit of another script or a number past 64 bits, is bad input."""
    text = (query.get(name) or "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(INT64_MAX)) or not 1 <= int(text) <= INT64_MAX:
        raise BadInput(f"{name}= takes {what}, a whole number from 1, not {printable(text[:60])}")
    return int(text)


def segments(request: Request, prefix: str = "/c/") -> list[str]:
    """The names in a readable URL (`/c/<campaign>/<character>`), each decoded on its own from the raw
    path, so that a name holding a slash (written %2F) stays one name."""
    raw = request.scope.get("raw_path") or request.url.path.encode()
    tail = raw.split(b"?", 1)[0][len(prefix) :]
    return [unquote_to_bytes(part).decode("utf-8", "replace") for part in tail.split(b"/")]


def campaign_href(campaign: dict[str, Any]) -> str:
    return "/c/" + quote(campaign["name"], safe="")


def plain(kind: str) -> str:
    """`StatusAwarded` -> "Status awarded"."""
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).split()
    return " ".join(words).capitalize()


def shown(value: object) -> str:
    """A sheet value as people read it: yes or no, not Python's True or False."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def build(data: Reading, say: Callable[[str], None], streams: int = STREAMS, writes: Writer | None = None) -> Starlette:
    """The app for one ledger; `say` prints one line on the terminal; at most `streams` clients follow
    `/events` at once (web/limits.py); `writes`: the writer of `serve --writes` (web/writes.py)."""
    env = templates()
    env.globals["writes"] = writes is not None
    once = Once(say)
    crowded = Once(say, "connections are accepted again", settle=5)  # (not after each of a flood's lulls)
    hub = Hub(data, once, streams)

    def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        as_of = request.query_params.get("as_of") or None
        html = env.get_template(name).render(
            fragment=bool(request.query_params.get("fragment")), as_of=as_of, request=request, **context
        )
        return HTMLResponse(html, status_code=status)

    def failed(request: Request, status: int, title: str, problem: str) -> HTMLResponse:
        return render(request, "error.html", status, title=title, problem=problem)

    def page(view: Callable[[Request], Response]) -> Callable[[Request], Awaitable[Response]]:
        """The page is read and rendered in a worker thread, never in the event loop, which must go on
        answering other requests, streams and Ctrl-C. Errors become a page and, for storage faults, one
        line on the terminal: never a traceback."""

        async def guarded(request: Request) -> Response:
            try:
                response = await run_in_threadpool(view, request)
            except LedgerUnavailable as problem:
                once.problem(str(problem))
                return failed(request, 503, "The ledger cannot be read", str(problem))
            except Exception as problem:
                said = failure(problem, addressed=True)  # a name the page's address holds: 404 if lacking
                if said.http_status == 404:
                    return failed(request, 404, "Not in this ledger", said.message)
                if not said.internal:
                    return failed(request, said.http_status, "Not an address this view can show", said.message)
                say(f"error on {request.url.path}: {said.message}")  # a bug: the page says so, the terminal why
                return failed(
                    request,
                    500,
                    "Something went wrong",
                    "The page could not be made; the terminal running `chronicle serve` says why.",
                )
            once.fine()
            return response

        return guarded

    def as_of(request: Request) -> str | None:
        value = (request.query_params.get("as_of") or "").strip()
        return f"#{value}" if value.isascii() and value.isdigit() else value or None

    def campaign_of(**asked: Any) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """A campaign's page (by id, by name, else the current one) and every campaign a page links."""
        found = data.ask(CampaignPage(**asked)).document
        return found["campaign"], found["campaigns"]

    def campaign_page(request: Request, chosen: dict[str, Any] | None, known: list[dict[str, Any]]) -> Response:
        others = [c for c in known if chosen is None or c["id"] != chosen["id"]]
        return render(
            request,
            "campaigns.html",
            campaigns=[chosen] if chosen else [],
            others=others,
            log_href=campaign_href(chosen) + "/log" if chosen else "/log",
        )

    @page
    def campaigns(request: Request) -> Response:
        return campaign_page(request, *campaign_of(as_of=as_of(request)))

    def character_page(request: Request, ident: str) -> Response:
        found = data.ask(CharacterPage(id=ident, as_of=as_of(request), points=MOST_POINTS)).document["character"]
        if found is None:
            return failed(request, 404, "No such character", "This ledger has no character at that address.")
        href = "/c/" + quote(found["campaign"], safe="")
        return render(request, "character.html", character=found, campaign_href=href, log_href=href + "/log")

    @page
    def character(request: Request) -> Response:
        """The old address by id: sent on to the readable one, its query kept."""
        try:
            found = data.ask(CharacterAddress(id=request.path_params["ident"])).document
        except NotFound:
            return failed(request, 404, "No such character", "This ledger has no character at that address.")
        href = "/c/" + "/".join(quote(name, safe="") for name in (found["campaign"], found["name"]))
        return RedirectResponse(href + (f"?{request.url.query}" if request.url.query else ""), status_code=308)

    @page
    def readable(request: Request) -> Response:
        """`/c/<campaign>`, `/c/<campaign>/log` and `/c/<campaign>/<character>`: names, matched as on the
        command line (without regard to case); an unknown one is a 404 page saying which."""
        parts = segments(request)
        if parts and parts[-1] == "" and len(parts) > 1:
            parts.pop()  # a trailing slash
        if len(parts) == 2 and parts[1] != "log":  # by the names alone: the party's rows are not read
            found = data.ask(CharacterAddress(campaign=parts[0], name=parts[1])).document
            return character_page(request, found["id"])
        if len(parts) > 2:
            raise NotFound("This view has no page at that address.")
        chosen, known = campaign_of(name=parts[0], as_of=as_of(request))
        return campaign_page(request, chosen, known) if len(parts) == 1 else log_page(request, chosen, known)

    @page
    def log(request: Request) -> Response:
        wanted = request.query_params.get("campaign")
        try:
            chosen, known = campaign_of(campaign=wanted) if wanted else campaign_of()
        except NotFound:  # a campaign no longer there: the current one's
            chosen, known = campaign_of()
        return log_page(request, chosen, known)

    def log_page(request: Request, chosen: dict[str, Any] | None, known: list[dict[str, Any]]) -> Response:
        """The campaign's log, newest first, with `log`'s filters: character, kind, session (N or
        last), since, until (event id, #position or time), tail; and before (the next page)."""
        query = request.query_params
        if chosen is None:
            return render(request, "log.html", campaign=None, campaigns=known, rows=[], filters={})
        filters = {key: (query.get(key) or "").strip() for key in ("character", "kind", "session", "since", "until")}
        before = whole(query, "before", "a log position")
        tail = whole(query, "tail", "how many of the newest events")
        if filters["session"].casefold() == "last":
            session = chosen["sessions"][-1][0] if chosen["sessions"] else None
            if session is None:
                raise BadInput("session=last: this campaign has had no session yet")
        else:
            session = whole(query, "session", "a session's number or last")
        if filters["kind"] and filters["kind"] not in chosen["kinds"]:
            raise BadInput(f"kind= takes a kind of event this campaign can hold, not {printable(filters['kind'][:60])}")
        if filters["character"]:
            names = {row["name"]: row["name"] for row in chosen["characters"]}
            try:
                filters["character"] = matching(filters["character"], names, "character")
            except NotFound as problem:
                raise BadInput(f"character= takes a character of {chosen['name']}: {problem}") from None
        rows = data.ask(
            LogPage(
                campaign=chosen["id"],
                character=filters["character"] or None,
                kind=filters["kind"] or None,
                as_of=as_of(request),
                before=before,
                session=session,
                since=filters["since"] or None,
                until=filters["until"] or None,
                tail=tail,
            )
        ).document["events"]
        href = campaign_href(chosen) + "/log"
        return render(request, "log.html", campaign=chosen, campaigns=known, rows=rows, filters=filters, log_href=href)

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
        fair.close()

    witness = Witness(data.target, once.problem)
    fair = FairDice(data.target, once.problem)  # what the pages' marks of fair dice check (web/fair.py)
    app = Starlette(
        routes=[
            Route("/", campaigns, methods=list(READS)),
            Route("/character/{ident}", character, methods=list(READS)),
            Route("/log", log, methods=list(READS)),
            Route("/c/{rest:path}", readable, methods=list(READS)),
            Route("/favicon.ico", favicon, methods=list(READS)),
            Route("/events", events, methods=list(READS)),
            *witness.routes(),
            *fair.routes(),
            *(writes.routes(render) if writes is not None else []),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.add_middleware(ReadOnly, writes=("/api/commands",) if writes is not None else ())
    app.add_middleware(Descriptors, once=crowded)
    app.add_middleware(Headers)  # outermost: on every answer
    return app
