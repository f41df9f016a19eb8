"""A character's page (`/c/<campaign>/<character>`; `/character/<id>` is sent on to it): its condition,
Status, sheet and story, and, with `serve --writes`, the forms of what its participant may record."""

from __future__ import annotations

from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ....domain.errors import NotFound
from ....ledger.application.queries.pages import CharacterAddress, CharacterPage
from ...chart import MOST_POINTS
from . import READS, Site, as_of

MISSING = "This ledger has no character at that address."


def character_page(site: Site, request: Request, ident: str) -> Response:
    document = site.data.ask(CharacterPage(id=ident, as_of=as_of(request), points=MOST_POINTS)).document
    found = document["character"]
    if found is None:
        return site.failed(request, 404, "No such character", MISSING, "not_found")
    href = "/c/" + quote(found["campaign"], safe="")
    return site.show(request, "character.html", document, character=found, campaign_href=href, log_href=href + "/log")


def routes(site: Site) -> list[Route]:
    @site.page
    def by_id(request: Request) -> Response:
        """The old address by id: sent on to the readable one, its query kept."""
        try:
            found = site.data.ask(CharacterAddress(id=request.path_params["ident"])).document
        except NotFound:
            return site.failed(request, 404, "No such character", MISSING, "not_found")
        href = "/c/" + "/".join(quote(name, safe="") for name in (found["campaign"], found["name"]))
        return RedirectResponse(href + (f"?{request.url.query}" if request.url.query else ""), status_code=308)

    return [Route("/character/{ident}", by_id, methods=list(READS))]
