"""A campaign's log (`/c/<campaign>/log`, and `/log?campaign=ID`), newest first, with `log`'s filters:
character, kind, session (N or last), since, until (event id, #position or time), tail; and before (the
next page)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ....domain.errors import BadInput, NotFound
from ....domain.text import printable
from ....ledger.application.names import matching
from ....ledger.application.queries.pages import CampaignPage, LogPage
from . import READS, Site, as_of, campaign_href, whole

FILTERS = ("character", "kind", "session", "since", "until")


def log_page(site: Site, request: Request, page: dict[str, Any]) -> Response:
    chosen, known = page["campaign"], page["campaigns"]
    if chosen is None:
        document = {"campaign": None, "campaigns": known, "events": []}
        return site.show(request, "log.html", document, campaign=None, campaigns=known, rows=[], filters={})
    filters = {key: (request.query_params.get(key) or "").strip() for key in FILTERS}
    asked = _asked(request, chosen, filters)
    rows = site.data.ask(asked).document["events"]
    document = {
        "campaign": {key: chosen[key] for key in ("id", "name", "system")},
        "filters": {key: value for key, value in filters.items() if value},
        "events": rows,
    }
    href = campaign_href(chosen) + "/log"
    return site.show(
        request, "log.html", document, campaign=chosen, campaigns=known, rows=rows, filters=filters, log_href=href
    )


def _asked(request: Request, chosen: dict[str, Any], filters: dict[str, str]) -> LogPage:
    """The log page's query from the address's filters (each checked: a bad one is bad input naming it)."""
    query = request.query_params
    if filters["session"].casefold() == "last":
        if not chosen["sessions"]:
            raise BadInput("session=last: this campaign has had no session yet")
        session = chosen["sessions"][-1][0]
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
    return LogPage(
        campaign=chosen["id"],
        character=filters["character"] or None,
        kind=filters["kind"] or None,
        as_of=as_of(request),
        before=whole(query, "before", "a log position"),
        session=session,
        since=filters["since"] or None,
        until=filters["until"] or None,
        tail=whole(query, "tail", "how many of the newest events"),
    )


def routes(site: Site) -> list[Route]:
    @site.page
    def log(request: Request) -> Response:
        wanted = request.query_params.get("campaign")
        try:
            page = site.data.ask(CampaignPage(campaign=wanted) if wanted else CampaignPage()).document
        except NotFound:  # a campaign no longer there: the current one's
            page = site.data.ask(CampaignPage()).document
        return log_page(site, request, page)

    return [Route("/log", log, methods=list(READS))]
