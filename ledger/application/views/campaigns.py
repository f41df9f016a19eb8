"""Campaigns over the years: which ones the ledger holds, which is current, sessions at the table."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from ....domain.campaign import Campaign, CampaignArchived, CampaignChosen, SessionEnded, SessionStarted
from ....domain.errors import BadInput, Refusal
from ....domain.text import check_text, printable
from ..session import Session
from .characters import required


def campaign_list(session: Session, archived: bool = False) -> list[dict[str, Any]]:
    """`{"name", "system", "characters", "events", "current", "archived"}` for each campaign, oldest first;
    archived ones only when asked."""
    index = session.app.index
    index.catch_up()
    current = index.current_campaign()
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
    campaign = session.campaign_named(name)
    if campaign.archived:
        raise Refusal(f"campaign {printable(campaign.name)} is archived")
    campaign.trigger_event(CampaignChosen, by=session.by, timestamp=session.now())
    return _appended(campaign)


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


def sessions(session: Session) -> list[dict[str, Any]]:
    """`{"number", "title", "start", "end", "events"}`: start and end are log positions (end None while it runs)."""
    campaign = session.campaign
    index = session.app.index
    index.catch_up()
    found = []
    for sitting in campaign.sessions:
        start = index.position_of(campaign.id, sitting.started)
        end = index.position_of(campaign.id, sitting.finished) if sitting.finished is not None else None
        found.append(
            {
                "number": sitting.number,
                "title": sitting.title,
                "start": start,
                "end": end,
                "events": len(index.log(campaign.id, since=start, until=end)),
            }
        )
    return found


def session_bounds(session: Session, which: str) -> tuple[int, int | None]:
    """The log positions of session N (or `last`)."""
    listed = sessions(session)
    chosen: dict[str, Any] | None
    if not listed:
        raise BadInput("this campaign has no sessions yet: `chronicle session start [TITLE]` begins one")
    if which == "last":
        chosen = listed[-1]
    else:
        try:
            chosen = listed[int(which) - 1] if int(which) >= 1 else None
        except (ValueError, IndexError):
            chosen = None
        if chosen is None:
            raise BadInput(
                f"--session takes a session number from 1 to {len(listed)} or `last`, not {printable(which)}"
            )
    return chosen["start"], chosen["end"]


def _appended(campaign: Campaign) -> dict[str, Any]:
    return {"event": campaign.last_event_id, "version": campaign.version, "campaign": campaign.name}
