"""The tools an assistant sees: one per command document (`chronicle commands --json`: name, summary,
systems and schema), and one per query it may ask (`reads.py`). A call builds the command or the query,
runs it in a ledger of its own (`execute`, `ask`), and answers the reply's document and its text."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ...domain.errors import BadInput
from ...ledger.application.reply import Reply
from .desk import Desk
from .reads import asked, described, reads, tool_name

__all__ = ["Listed", "call", "known", "listing", "tool_name"]


@dataclass(frozen=True)
class Listed:
    """A tool as the protocol lists it."""

    name: str
    description: str
    schema: dict[str, Any]
    writes: bool


@functools.cache
def writing() -> dict[str, tuple[str, Listed]]:
    """Each command document's tool, by tool name: the command it sends, and how it is listed."""
    from ...ledger.application.commands import published

    found = {}
    for command, entry in published().items():
        systems = ", ".join(entry["systems"]) or "every system"
        listed = Listed(tool_name(command), f"{entry['summary']} ({systems})", arguments_of(entry["schema"]), True)
        found[listed.name] = (command, listed)
    return found


def arguments_of(schema: dict[str, Any]) -> dict[str, Any]:
    """A command document's schema as the tool's input: the document without its `command` key (the
    tool names it), an object at the root as the protocol requires (a command that differs by rule system
    is any of its variants: the campaign's system picks one)."""

    def without_command(part: dict[str, Any]) -> dict[str, Any]:
        properties = {key: value for key, value in part.get("properties", {}).items() if key != "command"}
        required = [key for key in part.get("required", []) if key != "command"]
        return {**part, "properties": properties, "required": required}

    if "anyOf" not in schema:
        return without_command(schema)
    return {**schema, "type": "object", "anyOf": [without_command(variant) for variant in schema["anyOf"]]}


@functools.cache
def reading() -> dict[str, Listed]:
    return {tool: Listed(tool, *described(query), False) for tool, query in reads().items()}


def listing() -> list[Listed]:
    """Every tool: the commands that write, in `commands --json`'s order, then the ones that read."""
    return [listed for _, listed in writing().values()] + list(reading().values())


def known(name: str) -> bool:
    return name in writing() or name in reads()


def call(desk: Desk, name: str, arguments: dict[str, Any]) -> Reply:
    """Run tool NAME with ARGUMENTS in a ledger of its own; a failure raises as the CLI's command would."""
    if name in reads():
        query = asked(reads()[name], arguments)
        with desk.ledger() as ledger:
            return _built(ledger.ask(query))
    command, _ = writing()[name]
    if "command" in arguments:  # the tool names its command: a document's own key would contradict it
        raise BadInput(f"{command}: unknown key 'command'")
    with desk.ledger(writing=True) as ledger:
        return _built(ledger.execute_document({**arguments, "command": command}))


def _built(reply: Reply) -> Reply:
    """REPLY with its document and text built while its ledger is open (both are made when first asked)."""
    return Reply.of(reply.document, reply.text)
