"""Campaigns over the years: which ones the ledger holds, which is current, sessions at the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple
from uuid import UUID

from ....domain.campaign import Campaign, CampaignArchived, SessionEnded, SessionStarted
from ....domain.errors import BadInput, Refusal
from ....domain.text import check_text, printable
from ....projections import queries
from ..current import current_id
from ..session import Session
from .characters import required
from .stored import decoded, notifications_at  # (the titles: the starts alone are decoded)

if TYPE_CHECKING:
    from ...store.chronicle import Chronicle


def campaign_list(session: Session, archived: bool = False) -> list[dict[str, Any]]:
    """`{"name", "system", "characters", "events", "current", "archived"}` for each campaign, oldest first;
    archived ones only when asked."""
    index = session.app.index
    index.catch_up()
    current, _ = current_id(session.app, index)
    rows = []
    for ident, name, system in index.campaigns():
        if index.archived(UUID(ident)) and not archived:
            continue
        rows.append(
            {
                "name": name,
                "system": system,
                "characters": len(index.characters(UUID(ident))),
                "events": index.count(UUID(ident)),
                "current": ident == current,
                "archived": index.archived(UUID(ident)),
            }
        )
    return rows


def use(session: Session, name: str) -> dict[str, Any]:
    """The user's own choice, noted in their folder (ledger/application/current.py): nothing in any log."""
    campaign = session.campaign_named(name)
    if campaign.archived:
        raise Refusal(f"campaign {printable(campaign.name)} is archived")
    session.choose(campaign)
    return {"campaign": campaign.name, "id": str(campaign.id)}


def archive(session: Session, name: str, reason: str) -> dict[str, Any]:
    campaign = session.campaign_named(name)
    if campaign.archived:
        raise Refusal(f"campaign {printable(campaign.name)} is archived already")
    campaign.trigger_event(CampaignArchived, reason=required(reason), by=session.by, timestamp=session.now())
    return {**_appended(campaign), "reason": reason}


def start_session(session: Session, title: str) -> dict[str, Any]:
    campaign = session.campaign
    if campaign.open_session is not None:
        raise Refusal(f"session {campaign.open_session.number} has not ended: `chronicle session end` first")
    number = len(campaign.sessions) + 1
    campaign.trigger_event(
        SessionStarted, number=number, title=check_text(title, "the title"), by=session.by, timestamp=session.now()
    )
    return {**_appended(campaign), "number": number, "title": title}


def end_session(session: Session, digest: str = "") -> dict[str, Any]:
    campaign = session.campaign
    running = campaign.open_session
    if running is None:
        raise Refusal("no session is running: `chronicle session start [TITLE]` begins one")
    campaign.trigger_event(SessionEnded, number=running.number, digest=digest, by=session.by, timestamp=session.now())
    return {**_appended(campaign), "number": running.number, "title": running.title, "digest": digest}


class Span(NamedTuple):
    """A session of play: its number and title, and the log positions of its start and its end (None
    while it runs)."""

    number: int
    title: str
    start: int
    end: int | None

    @property
    def name(self) -> str:
        return f"session {self.number}" + (f": {self.title}" if self.title else "")


def session_spans(app: Chronicle, campaign_id: UUID) -> list[Span]:
    """The campaign's sessions of play, oldest first: where each starts and ends from the events table's
    few session events (`projections.queries.session_spans`, which `status_series` numbers changes by),
    each title from its start's event. Nothing is folded."""
    spans = queries.session_spans(app.views, campaign_id)
    if not spans:
        return []
    starts = notifications_at(app, [start for _, start, _ in spans])
    titles = {stored.id: getattr(decoded(app, stored), "title", "") for stored in starts}
    return [Span(number, titles.get(start, ""), start, end) for number, start, end in spans]


def sessions(session: Session) -> list[dict[str, Any]]:
    """`{"number", "title", "start", "end", "events"}`: start and end are log positions (end None while it runs)."""
    campaign = session.campaign
    index = session.app.index
    index.catch_up()
    return [
        {
            "number": span.number,
            "title": span.title,
            "start": span.start,
            "end": span.end,
            "events": len(index.log(campaign.id, since=span.start, until=span.end)),
        }
        for span in session_spans(session.app, campaign.id)
    ]


def session_bounds(session: Session, which: str) -> tuple[int, int | None]:
    """The log positions of session N (or `last`)."""
    span = session_span(session_spans(session.app, session.campaign.id), which, "--session")
    return span.start, span.end


def session_span(spans: list[Span], which: str, option: str) -> Span:
    """Session WHICH (its number, or `last`) of SPANS; bad input naming OPTION when there is none such."""
    if not spans:
        raise BadInput("this campaign has no sessions yet: `chronicle session start [TITLE]` begins one")
    if which == "last":
        return spans[-1]
    try:
        chosen = spans[int(which) - 1] if int(which) >= 1 else None
    except (ValueError, IndexError):
        chosen = None
    if chosen is None:
        raise BadInput(f"{option} takes a session number from 1 to {len(spans)} or `last`, not {printable(which)}")
    return chosen


def _appended(campaign: Campaign) -> dict[str, Any]:
    return {"event": campaign.last_event_id, "version": campaign.version, "campaign": campaign.name}
