"""The fair dice in the browser (docs/fair-dice.md): what a page needs to derive a fair roll's faces again
itself (static/fair.js, with Web Crypto), never what the ledger keeps secret.

- `GET /api/fair?campaign=ID&positions=N,M,...` -> `{"rolls": {"N": {"index", "seed", "device_seed",
  "rolls": [{"sides", "faces"}], "commitment": {"position", "head", "length"}}}}`: the fair rolls among
  those events of the campaign (a page's: at most 500), asked as the query `fair rolls` through the one
  reading path; its failures are the one failure path's, as JSON."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ....domain.errors import BadInput
from ....ledger.application.queries.fair import FairRolls
from ....ledger.application.views.fair_dice import MOST
from . import READS, Site

DIGITS = 18  # a position's digits at most


def positions(given: str) -> tuple[int, ...]:
    parts = [part for part in given.split(",") if part]
    if len(parts) > MOST or not all(part.isascii() and part.isdigit() and len(part) <= DIGITS for part in parts):
        raise BadInput(f"positions= is up to {MOST} log positions, comma-separated")
    return tuple(map(int, parts))


def routes(site: Site) -> list[Route]:
    def asked(request: Request) -> FairRolls:
        query = request.query_params
        return FairRolls(campaign=query.get("campaign", ""), positions=positions(query.get("positions", "")))

    return [Route("/api/fair", site.api(asked), methods=list(READS))]
