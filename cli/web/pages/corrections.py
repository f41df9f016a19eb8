"""What a gm's "correct this" beside a story entry opens the correction form with (static/act.js):

- `GET /api/dice?campaign=ID&position=N` -> `{"position", "type", "character", "text", "correctable":
  [{"roll", "says", "faces"}]}`: the event's dice, each by the name `amend` corrects it under
  (`--roll NAME=FACES`), in the table's words, with the faces recorded."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ....ledger.application.queries.corrections import EventDice
from . import READS, Site, whole


def routes(site: Site) -> list[Route]:
    def asked(request: Request) -> EventDice:
        position = whole(request.query_params, "position", "a log position") or 0
        return EventDice(campaign=request.query_params.get("campaign", ""), position=position)

    return [Route("/api/dice", site.api(asked), methods=list(READS))]
