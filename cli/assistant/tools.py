"""The tools an assistant sees: one per command document (`chronicle commands --json`) of the rule systems
the database's campaigns use (every system's on an empty database), named as the command with spaces and
dashes as underscores (`oath_swear`), its input the document's schema without `command`; and one per query
it may ask (`reads.py`). Each takes an optional `campaign`; a call builds the command or the query, runs it
in a ledger of its own on that campaign (`execute`, `ask`), and answers the reply's document and its text.

`replay` is both: without `fork` it is the what-if query (nothing written), with it the command."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from ...domain.errors import BadInput, ChronicleError
from ...ledger.application.reply import Reply
from .desk import Desk
from .examples import EXAMPLES, SENTENCES
from .reads import asked, described, reads, tool_name
from .schemas import command_input, lean, with_campaign

__all__ = ["Listed", "call", "known", "listing", "tool_name"]

# `campaign use` is the user's own choice, kept in their folder: an assistant names a campaign per call instead
NOT_OFFERED = ("campaign use",)
WHAT_IF = "replay"  # the query (no `fork`) and the command (`fork`) share the tool
FORK = "Write the what-if as this new campaign; without it nothing is written."


@dataclass(frozen=True)
class Listed:
    """A tool as the protocol lists it."""

    name: str
    description: str
    schema: dict[str, Any]
    writes: bool


def listing(desk: Desk | None = None) -> list[Listed]:
    """Every tool of DESK's database: the commands that write of the systems its campaigns use, in
    `commands --json`'s order, then the ones that read. Without a desk (or a database), every system's.
    Where the campaign is known (the only one, or `--campaign`'s), a field's known values are its `enum`."""
    if desk is None:
        return list(_listing(None))
    campaigns = _campaigns(desk)
    found = list(_listing(frozenset(campaigns.values()) or None))
    known = desk.campaign if desk.campaign in campaigns else next(iter(campaigns)) if len(campaigns) == 1 else None
    return found if known is None else _chosen(desk, known, found)


def _chosen(desk: Desk, campaign: str, found: list[Listed]) -> list[Listed]:
    """FOUND with the values CAMPAIGN's sheets and system know for each field (choices.py)."""
    from . import choices

    with desk.ledger(campaign=campaign) as ledger:
        table = choices.table(ledger)  # read once for every tool
        return [
            choices.with_choices(each, choices.offered(table, _tools()[each.name])) if each.writes else each
            for each in found
        ]


def known(name: str) -> bool:
    return name in _tools() or name in reads()


def call(desk: Desk, name: str, arguments: dict[str, Any]) -> Reply:
    """Run tool NAME with ARGUMENTS (its `campaign` picks the campaign) in a ledger of its own; a failure
    raises as the CLI's command would."""
    arguments = dict(arguments)
    campaign = arguments.pop("campaign", None)
    if campaign is not None and not isinstance(campaign, str):
        raise BadInput(f"{name}: 'campaign': must be text")
    query_name = reads().get(name) or (WHAT_IF if name == WHAT_IF and "fork" not in arguments else None)
    if query_name is not None:
        query = asked(query_name, arguments)
        with desk.ledger(campaign=campaign) as ledger:
            return _built(ledger.ask(query))
    command = _tools()[name]
    if "command" in arguments:  # the tool names its command: a document's own key would contradict it
        raise BadInput(f"{command}: unknown key 'command'")
    with desk.ledger(writing=True, campaign=campaign) as ledger:
        return _built(ledger.execute_document({**arguments, "command": command}))


@functools.cache
def _commands() -> tuple[str, ...]:
    from ...ledger.application.commands import CATALOGUE

    return tuple(name for name in sorted(CATALOGUE) if name not in NOT_OFFERED)


@functools.cache
def _tools() -> dict[str, str]:
    """Each writing tool's command, by tool name."""
    return {tool_name(command): command for command in _commands()}


def _campaigns(desk: Desk) -> dict[str, str]:
    """The database's campaigns' systems, by name (none when it is not there yet)."""
    from ...ledger.application.queries import CampaignList

    try:
        with desk.ledger() as ledger:
            listed = ledger.ask(CampaignList()).document["campaigns"]
    except ChronicleError:  # no database yet: every system's tools
        return {}
    return {campaign["name"]: campaign["system"] for campaign in listed}


@functools.cache
def _listing(systems: frozenset[str] | None) -> tuple[Listed, ...]:
    writing = [_writing_tool(tool, command, systems) for tool, command in _tools().items()]
    reading = [_reading_tool(tool, query) for tool, query in reads().items()]
    return tuple(listed for listed in writing if listed is not None) + tuple(reading)


def _writing_tool(tool: str, command: str, systems: frozenset[str] | None) -> Listed | None:
    """COMMAND's tool in a database of SYSTEMS (None: any), or None when it is none of theirs: its input
    the document's schema of the variants there (`commands --json`'s, where they are every system's)."""
    from ...ledger.application.commands import document_schema, in_systems

    found = in_systems(command, systems)
    if not found:
        return None
    schema = command_input(document_schema(found))
    if command == WHAT_IF:  # without `fork`, the what-if that writes nothing
        schema["required"] = [key for key in schema.get("required", []) if key != "fork"]
        schema["properties"]["fork"] = {**schema["properties"]["fork"], "description": FORK}
    only = sorted({system for model in found for system in model.systems})
    where = f" ({', '.join(only)})" if only and (systems is None or len(systems) > 1) else ""
    description = f"{_sentence(command)}{where} Example: {_example(command)}"
    return Listed(tool, description, with_campaign(schema), True)


def _reading_tool(tool: str, query: str) -> Listed:
    summary, schema = described(query)
    description = f"{_first_sentence(summary)} Example: {_example(query)}"
    return Listed(tool, description, with_campaign(lean(schema)), False)


def _sentence(command: str) -> str:
    from ...ledger.application.commands import summary_of, variants
    from ..summaries import SUMMARIES

    if command in SENTENCES:
        return SENTENCES[command]
    found = variants(command)
    # the command line's summary says what each system's does, and what `replay` is without `fork`
    general = len(found) > 1 or command == WHAT_IF
    return _first_sentence(SUMMARIES[command] if general and command in SUMMARIES else summary_of(found[0]))


def _first_sentence(text: str) -> str:
    """TEXT's first sentence, up to its first colon or semicolon, without its parentheses (what they and
    what follows say is the detail a call's fields and answer give)."""
    return re.sub(r" \([^()]*\)", "", _up_to_the_point(text))


def _up_to_the_point(text: str) -> str:
    text = " ".join(text.split())
    for found in re.finditer(r"(?<!e\.g)(?<!i\.e)[.!?:;](\s|$)", text):
        before = text[: found.start()]
        if before.count("(") > before.count(")"):
            continue  # (inside parentheses)
        if found.group().startswith(":") and len(before.split()) < 5:
            continue  # ("What if: ...", "The campaign: ...": the colon opens the sentence's point)
        return text[: found.start()].rstrip() + "."
    return text


def _example(name: str) -> str:
    return json.dumps(EXAMPLES.get(name, {}), ensure_ascii=False, separators=(",", ":"))


def _built(reply: Reply) -> Reply:
    """REPLY with its document and text built while its ledger is open (both are made when first asked)."""
    return Reply.of(reply.document, reply.text)
