"""The table view's pages, one module each (`campaigns`, `character`, `log`, `fair`): each builds its query,
asks it through the one reading path (web/reading.py) and renders its answer, as HTML or, asked with
`Accept: application/json`, as the data it shows. `Site` is what they share: the templates, the ledger, and
the one failure path (ledger/application/failures.py) said as a page or as JSON."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote_to_bytes

import jinja2
import markupsafe
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ....domain.errors import BadInput
from ....domain.explain import state_words
from ....domain.limits import INT64_MAX
from ....domain.pendragon.increases import next_increase_at
from ....domain.text import printable
from ....ledger.application.failures import failure
from ....ledger.application.queries import Query
from ...chart import status_chart
from ...html import struck_html
from ..live import Once
from ..reading import LedgerUnavailable, Reading

HERE = Path(__file__).parent.parent
READS = ("GET", "HEAD")
View = Callable[[Request], Response]


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


def plain(kind: str) -> str:
    """`StatusAwarded` -> "Status awarded"."""
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).split()
    return " ".join(words).capitalize()


def shown(value: object) -> str:
    """A sheet value as people read it: yes or no, not Python's True or False."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


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


def as_of(request: Request) -> str | None:
    """`?as_of=` as a query takes it: a bare position is `#N`."""
    value = (request.query_params.get("as_of") or "").strip()
    return f"#{value}" if value.isascii() and value.isdigit() else value or None


def wants_data(request: Request) -> bool:
    """Whether the request asks for the page's data (`Accept: application/json` before any HTML)."""
    accept = request.headers.get("accept", "")
    json_at, html_at = accept.find("application/json"), accept.find("text/html")
    return json_at >= 0 and (html_at < 0 or json_at < html_at)


def data_response(document: dict[str, Any], status: int = 200) -> Response:
    import orjson

    body = orjson.dumps(document, default=str, option=orjson.OPT_NON_STR_KEYS)
    return Response(body, status_code=status, media_type="application/json", headers={"Vary": "Accept"})


@dataclass
class Site:
    """What every page shares: the templates, the ledger's one reading path, and the terminal's line."""

    env: jinja2.Environment
    data: Reading
    once: Once
    say: Callable[[str], None]

    def render(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(
            fragment=bool(request.query_params.get("fragment")),
            as_of=request.query_params.get("as_of") or None,
            request=request,
            **context,
        )
        return HTMLResponse(html, status_code=status, headers={"Vary": "Accept"})

    def show(self, request: Request, name: str, document: dict[str, Any], **context: Any) -> Response:
        """A page: DOCUMENT (the data it shows) as JSON when asked so, else rendered with CONTEXT."""
        if wants_data(request):
            return data_response(document)
        return self.render(request, name, **context)

    def failed(self, request: Request, status: int, title: str, problem: str, code: str = "") -> Response:
        if wants_data(request):
            return data_response({"error": {"code": code or _code(status), "message": problem}}, status)
        return self.render(request, "error.html", status, title=title, problem=problem)

    def page(self, view: View) -> Callable[[Request], Awaitable[Response]]:
        """The page is read and rendered in a worker thread, never in the event loop, which must go on
        answering other requests, streams and Ctrl-C. Errors become a page and, for storage faults, one
        line on the terminal: never a traceback."""

        async def guarded(request: Request) -> Response:
            try:
                response = await run_in_threadpool(view, request)
            except LedgerUnavailable as problem:
                self.once.problem(str(problem))
                return self.failed(request, 503, "The ledger cannot be read", str(problem), "unavailable")
            except Exception as problem:
                said = failure(problem, addressed=True)  # a name the page's address holds: 404 if lacking
                if said.http_status == 404:
                    return self.failed(request, 404, "Not in this ledger", said.message, said.code)
                if not said.internal:
                    title = "Not an address this view can show"
                    return self.failed(request, said.http_status, title, said.message, said.code)
                self.say(f"error on {request.url.path}: {said.message}")  # a bug: the page says so, the terminal why
                why = "The page could not be made; the terminal running `chronicle serve` says why."
                return self.failed(request, 500, "Something went wrong", why, "internal")
            self.once.fine()
            return response

        return guarded

    def api(self, asked: Callable[[Request], Query]) -> Callable[[Request], Awaitable[Response]]:
        """A JSON address: the query ASKED makes of the request, answered through the one reading path;
        its failures the one failure path's `{"error": {"code", "message"}}`; nothing cached."""

        async def answer(request: Request) -> Response:
            try:
                found = await run_in_threadpool(self.data.ask, asked(request))
            except LedgerUnavailable as problem:  # the page says it cannot read now, the terminal why
                self.once.problem(str(problem))
                return _no_store(data_response({"error": {"code": "unavailable", "message": str(problem)}}, 503))
            except Exception as problem:
                said = failure(problem, addressed=True)
                if said.internal:
                    self.say(f"error on {request.url.path}: {said.message}")
                return _no_store(data_response(said.document(), said.http_status))
            return _no_store(data_response(found.document))

        return answer


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def _code(status: int) -> str:
    return {404: "not_found", 400: "bad_input", 503: "unavailable"}.get(status, "internal")
