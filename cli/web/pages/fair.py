"""The fair dice in the browser (docs/fair-dice.md): what a page needs to derive a fair roll's faces again
itself (static/fair.js, with Web Crypto), never what the ledger keeps secret.

- `GET /api/fair?campaign=ID&positions=N,M,...` -> `{"rolls": {"N": {"index", "seed", "device_seed",
  "rolls": [{"sides", "faces"}], "commitment": {"position", "head", "length"}}}}`: the fair rolls among
  those events of the campaign (a page's: at most 500), asked as the query `fair rolls` through the one
  reading path; its failures are the one failure path's, as JSON."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ....domain.errors import BadInput
from ....ledger.application.failures import failure
from ....ledger.application.queries.fair import FairRolls
from ....ledger.application.views.fair_dice import MOST
from ..reading import LedgerUnavailable
from . import READS, Site, data_response

DIGITS = 18  # a position's digits at most


def positions(given: str) -> tuple[int, ...]:
    parts = [part for part in given.split(",") if part]
    if len(parts) > MOST or not all(part.isascii() and part.isdigit() and len(part) <= DIGITS for part in parts):
        raise BadInput(f"positions= is up to {MOST} log positions, comma-separated")
    return tuple(map(int, parts))


def routes(site: Site) -> list[Route]:
    async def rolls(request: Request) -> Response:
        query = request.query_params
        try:
            asked = FairRolls(campaign=query.get("campaign", ""), positions=positions(query.get("positions", "")))
            found = await run_in_threadpool(site.data.ask, asked)
        except LedgerUnavailable as problem:  # the page says it cannot check now, the terminal why
            site.once.problem(str(problem))
            return _no_store(data_response({"error": {"code": "unavailable", "message": str(problem)}}, 503))
        except Exception as problem:
            said = failure(problem, addressed=True)
            if said.internal:
                site.say(f"error on {request.url.path}: {said.message}")
            return _no_store(data_response(said.document(), said.http_status))
        return _no_store(data_response(found.document))

    return [Route("/api/fair", rolls, methods=list(READS))]


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response
