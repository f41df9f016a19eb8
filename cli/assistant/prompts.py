"""The table's common asks as prompts an assistant's user picks: recap the last session, explain a
ruling, what changed for a character since a moment. Each reads what it tells through the queries the
CLI asks (`recap`, `campaign show`, `log`, `character show`) and hands it to the assistant with the ask."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from ...domain.errors import BadInput
from ...domain.text import printable
from ...ledger.application.queries import CampaignShow, CharacterShow, Log, Recap
from .desk import Desk

CAMPAIGN = ("campaign", "The campaign's name (default: the current one).", False)


@dataclass(frozen=True)
class Asked:
    name: str
    description: str
    arguments: tuple[tuple[str, str, bool], ...]  # (name, description, required)


PROMPTS = (
    Asked("recap_last_session", "Recap the campaign's last session for the table.", (CAMPAIGN,)),
    Asked(
        "explain_ruling",
        "Explain one of the campaign's rulings: what it is now, what it means, what the others would do.",
        (("ruling", "The ruling's key, as `campaign show` lists it (e.g. dying_dc).", True), CAMPAIGN),
    ),
    Asked(
        "character_since",
        "What changed for a character since a moment, from the log and the sheet as it is now.",
        (
            ("name", "The character.", True),
            ("since", "An event id, #position or ISO time (e.g. 2026-11-01).", True),
            CAMPAIGN,
        ),
    ),
)


def known(name: str) -> bool:
    return any(asked.name == name for asked in PROMPTS)


def told(desk: Desk, name: str, arguments: dict[str, str]) -> tuple[str, str]:
    """Prompt NAME with ARGUMENTS: its description and the message it gives the assistant."""
    (asked,) = [each for each in PROMPTS if each.name == name]
    for key, _, required in asked.arguments:
        if required and not arguments.get(key):
            raise BadInput(f"{name}: {key!r} is required")
    with desk.ledger(campaign=arguments.get("campaign") or None) as ledger:
        if name == "recap_last_session":
            campaign = ledger.ask(CampaignShow()).document
            recap = ledger.ask(Recap(session="last")).text
            text = (
                f"Recap the last session of the campaign {campaign['name']} for the table, in a few sentences and "
                f"in the table's words, from what the ledger tells of it:\n\n{recap}"
            )
        elif name == "explain_ruling":
            text = _ruling(ledger.ask(CampaignShow()).document, arguments["ruling"].strip())
        else:
            character, since = arguments["name"], arguments["since"]
            shown = ledger.ask(CharacterShow(name=character))
            events = ledger.ask(Log(name=character, since=since)).text
            text = (
                f"Tell the table what changed for {shown.document['name']} since {since}: the events the ledger"
                f" recorded since then, and the character as they are now.\n\nEvents:\n{events}\n\nNow:\n{shown.text}"
            )
    return asked.description, text


def _ruling(campaign: dict[str, Any], key: str) -> str:
    from ...domain import systems
    from ...domain.registry import system_title

    rulings = campaign["rulings"]
    if key not in rulings:
        close = get_close_matches(key, list(rulings), n=1)
        hint = f": did you mean {close[0]!r}?" if close else f": the rulings are {', '.join(rulings)}"
        raise BadInput(f"explain_ruling: no ruling {printable(key)}{hint}")
    meaning = systems.get(campaign["system"]).Rulings.model_fields[key].description or ""
    return (
        f"Explain to the table the ruling {key} of the campaign {campaign['name']}"
        f" ({system_title(campaign['system'])}): it is {rulings[key]!r} now. What it means: {meaning} Say what"
        " it changes in play and what its other values would do; the `replay` tool with ruling"
        f" {key}=VALUE shows what the campaign's recorded outcomes would become (it writes nothing)."
    )
