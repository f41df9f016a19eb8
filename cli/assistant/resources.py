"""Each campaign and each character as a resource an assistant can read without calling a tool: a
campaign's sheet (`campaign show`), its characters and its newest events; a character's sheet
(`character show`) and its newest events; each session's log (`log --session N`, or `last`). Names are
percent-encoded in the URIs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, urlsplit

from ...domain.errors import BadInput, ChronicleError
from ...ledger.application.queries import CampaignList, CampaignShow, CharacterList, CharacterShow, Log, SessionList
from ...ledger.application.reply import Reply
from .desk import Desk

if TYPE_CHECKING:
    from ...ledger.application.ledger import Ledger

STORY = 40  # the newest events a resource tells (the `log` tool has the rest), as the table view's pages do
TEMPLATES = {
    "campaign": "chronicle://campaign/{campaign}",
    "character": "chronicle://character/{campaign}/{name}",
    "session": "chronicle://log/{campaign}/{session}",
}


@dataclass(frozen=True)
class Entry:
    uri: str
    name: str
    title: str
    description: str


def campaign_uri(campaign: str) -> str:
    return f"chronicle://campaign/{quote(campaign, safe='')}"


def character_uri(campaign: str, name: str) -> str:
    return f"chronicle://character/{quote(campaign, safe='')}/{quote(name, safe='')}"


def session_uri(campaign: str, session: int | str) -> str:
    return f"chronicle://log/{quote(campaign, safe='')}/{session}"


def entries(desk: Desk) -> list[Entry]:
    """Every campaign (archived ones left out) and each of its characters (retired ones left out); none
    when the database does not exist yet."""
    found = []
    try:
        with desk.ledger() as ledger:
            for campaign in ledger.ask(CampaignList()).document["campaigns"]:
                name = campaign["name"]
                found.append(
                    Entry(
                        campaign_uri(name),
                        f"campaign/{name}",
                        f"{name} ({campaign['system']})",
                        f"The campaign {name}: rulings, counts, characters and its newest {STORY} events.",
                    )
                )
                ledger.campaign = name
                for character in ledger.ask(CharacterList()).document["characters"]:
                    found.append(
                        Entry(
                            character_uri(name, character["name"]),
                            f"character/{name}/{character['name']}",
                            f"{character['name']} ({name})",
                            f"{character['name']}: {character['summary']}; sheet and newest {STORY} events.",
                        )
                    )
                for session in ledger.ask(SessionList()).document["sessions"]:
                    number, title = session["number"], session.get("title") or ""
                    found.append(
                        Entry(
                            session_uri(name, number),
                            f"log/{name}/{number}",
                            f"{name}, session {number}" + (f": {title}" if title else ""),
                            f"The log of session {number} of {name}: its {session['events']} events.",
                        )
                    )
    except ChronicleError:  # no database yet, or none that opens: nothing to read
        return []
    return found


def read(desk: Desk, uri: str) -> Reply:
    """The resource at URI: its JSON document and its text."""
    parts = urlsplit(uri)
    path = [unquote(part) for part in parts.path.split("/")[1:]]
    if parts.scheme == "chronicle" and parts.netloc == "campaign" and len(path) == 1 and path[0]:
        with desk.ledger(campaign=path[0]) as ledger:
            return _campaign(ledger)
    if parts.scheme == "chronicle" and parts.netloc == "character" and len(path) == 2 and all(path):
        with desk.ledger(campaign=path[0]) as ledger:
            return _character(ledger, path[1])
    if parts.scheme == "chronicle" and parts.netloc == "log" and len(path) == 2 and all(path):
        session: int | str = int(path[1]) if path[1].isdigit() and len(path[1]) < 10 else path[1]
        with desk.ledger(campaign=path[0]) as ledger:
            return ledger.ask(Log(session=session))
    raise BadInput(f"no resource at {uri}: chronicle's are {', '.join(TEMPLATES.values())}")


def _campaign(ledger: Ledger) -> Reply:
    shown = ledger.ask(CampaignShow())
    party = ledger.ask(CharacterList())
    story = ledger.ask(Log(tail=STORY))
    characters = party.document["characters"]
    document = {"campaign": shown.document, "characters": characters, **story.document}
    text = "\n\n".join(
        [shown.text, party.text if characters else "No characters.", f"The newest events:\n{story.text}"]
    )
    return Reply.of(document, text)


def _character(ledger: Ledger, name: str) -> Reply:
    shown = ledger.ask(CharacterShow(name=name))
    story = ledger.ask(Log(name=name, tail=STORY))
    document = {"character": shown.document, **story.document}
    return Reply.of(document, f"{shown.text}\n\nThe newest events:\n{story.text}")
