"""The tools that read, each a CLI command that only reads: the same layer functions, the same `--json`
document, and the same sentences for people (the CLI's renderers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from ..output import rendered, stories, width

if TYPE_CHECKING:
    from ...ledger.application.commands import Reply
    from ...ledger.application.ledger import Ledger


class Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LogArguments(Arguments):
    name: str | None = Field(None, description="Only this character's events.")
    since: str | None = Field(None, description="The events at or after this event id, #position or ISO time.")
    until: str | None = Field(None, description="The events at or before this event id, #position or ISO time.")
    tail: int | None = Field(None, ge=0, description="Only the newest N (still oldest first).")
    session: str | int | None = Field(None, description="Only the events of session N (or `last`).")


class CharacterArguments(Arguments):
    name: str = Field(description="The character.")
    as_of: str | None = Field(None, description="The state right after an event id, #position or ISO time.")


class CampaignArguments(Arguments):
    pass


class RecapArguments(Arguments):
    session: str | int = Field("last", description="Which session to tell: its number, or `last`.")


class VerifyArguments(Arguments):
    require_signatures: bool = Field(
        False, description="An event recorded before chronicle signed what it records is a problem too."
    )


@dataclass(frozen=True)
class Read:
    """A tool that reads: what it takes, what it does, and how it answers from an open ledger."""

    arguments: type[Arguments]
    description: str
    answer: Callable[[Ledger, Any], Reply]


def plain(human: Any) -> str:
    """What people read (a string, or a table as the CLI prints it when piped) as text."""
    return human if isinstance(human, str) else rendered(human)


def log(ledger: Ledger, asked: LogArguments) -> Reply:
    from ...ledger.application.commands import Reply
    from ...ledger.application.views.history import events

    session = ledger.read()
    sitting = None if asked.session is None else str(asked.session)
    rows = list(events(session, asked.name, asked.since, asked.until, asked.tail, sitting, data=True))
    text = stories(rows, width(), session.campaign.name, who=asked.name is None) if rows else "No events."
    # --json keeps the contract's ISO times (UTC); people read local times
    document = {"events": [{key: value for key, value in row.items() if key != "local_time"} for row in rows]}
    return Reply.of(document, text)


def character_show(ledger: Ledger, asked: CharacterArguments) -> Reply:
    from ...ledger.application.commands import Reply
    from ...ledger.application.views.characters import character_view
    from ..character import sheet_text

    data = character_view(ledger.read(), asked.name, asked.as_of)
    return Reply(lambda: data, lambda: sheet_text(data))


def campaign_show(ledger: Ledger, asked: CampaignArguments) -> Reply:
    from ...ledger.application.commands import Reply
    from ..campaign import shown

    data, human = shown(ledger.read())
    return Reply(lambda: data, lambda: plain(human()))


def recap(ledger: Ledger, asked: RecapArguments) -> Reply:
    from ...ledger.application.commands import Reply
    from ...ledger.application.views.report import session_recap
    from ..recap import told

    data = session_recap(ledger.read(), str(asked.session))
    return Reply(lambda: data, lambda: told(data, width()))


def verify(ledger: Ledger, asked: VerifyArguments) -> Reply:
    """The whole log re-derived and its chains and tree checked, as `verify` does in one process."""
    from ...ledger.application.commands import Reply
    from ...ledger.trust.verify import verify as check
    from ..verify import told, witnessed

    session = ledger.read()
    report = check(session, None, None, asked.require_signatures)
    witnessed(session.app, session.campaign.id, report, None)
    return Reply(lambda: report, lambda: plain(told(report)))


READS: dict[str, Read] = {
    "log": Read(
        LogArguments,
        "The events, oldest first: position, time, author, and what each decided in sentences"
        " (filters as `chronicle log`).",
        log,
    ),
    "character_show": Read(
        CharacterArguments, "The current (or past) state of a character: condition and sheet.", character_show
    ),
    "campaign_show": Read(
        CampaignArguments,
        "The campaign: its name, system, rulings in force (with their meaning) and counts.",
        campaign_show,
    ),
    "recap": Read(
        RecapArguments, "Previously on the campaign: per character, what changed in a session, in sentences.", recap
    ),
    "verify": Read(
        VerifyArguments,
        "Re-derive every recorded outcome and check every signature, role and the log's hash chains;"
        " `ok` is false, naming each event's position, when anything does not match.",
        verify,
    ),
}
