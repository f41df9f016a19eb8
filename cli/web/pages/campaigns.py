"""The campaigns page (`/`) and a campaign's page (`/c/<campaign>`): its party, Status leaders, open oaths
and geasa, and the other campaigns; the readable addresses below a campaign are sent on to their pages."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ....domain.errors import NotFound
from ....ledger.application.queries.pages import CampaignPage, CharacterAddress
from . import READS, Site, as_of, campaign_href, segments
from .character import character_page
from .log import log_page


def campaign_of(site: Site, **asked: Any) -> dict[str, Any]:
    """A campaign's page (by id, by name, else the current one) and every campaign a page links."""
    return site.data.ask(CampaignPage(**asked)).document


def campaign_page(site: Site, request: Request, found: dict[str, Any]) -> Response:
    chosen, known = found["campaign"], found["campaigns"]
    others = [c for c in known if chosen is None or c["id"] != chosen["id"]]
    return site.show(
        request,
        "campaigns.html",
        found,
        campaigns=[chosen] if chosen else [],
        others=others,
        log_href=campaign_href(chosen) + "/log" if chosen else "/log",
    )


def routes(site: Site) -> list[Route]:
    @site.page
    def campaigns(request: Request) -> Response:
        return campaign_page(site, request, campaign_of(site, as_of=as_of(request)))

    @site.page
    def readable(request: Request) -> Response:
        """`/c/<campaign>`, `/c/<campaign>/log` and `/c/<campaign>/<character>`: names, matched as on the
        command line (without regard to case); an unknown one is a 404 page saying which."""
        parts = segments(request)
        if parts and parts[-1] == "" and len(parts) > 1:
            parts.pop()  # a trailing slash
        if len(parts) == 2 and parts[1] != "log":  # by the names alone: the party's rows are not read
            found = site.data.ask(CharacterAddress(campaign=parts[0], name=parts[1])).document
            return character_page(site, request, found["id"])
        if len(parts) > 2:
            raise NotFound("This view has no page at that address.")
        page = campaign_of(site, name=parts[0], as_of=as_of(request))
        return campaign_page(site, request, page) if len(parts) == 1 else log_page(site, request, page)

    return [
        Route("/", campaigns, methods=list(READS)),
        Route("/c/{rest:path}", readable, methods=list(READS)),
    ]
