"""The tools an assistant sees: one per command document (`chronicle commands --json`: name, summary,
systems and schema), and the tools that read (`reads.py`). A call builds the document or the arguments,
runs the layer in a ledger of its own, and answers the command's `--json` document and its sentences."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ...domain.errors import BadInput
from .desk import Desk
from .reads import READS

if TYPE_CHECKING:
    from ...ledger.application.commands import Reply


@dataclass(frozen=True)
class Listed:
    """A tool as the protocol lists it."""

    name: str
    description: str
    schema: dict[str, Any]
    writes: bool


def tool_name(command: str) -> str:
    """A command's tool: its name with spaces and dashes as underscores (`status award` is `status_award`)."""
    return command.replace(" ", "_").replace("-", "_")


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
    return {
        name: Listed(name, read.description, read.arguments.model_json_schema(), False) for name, read in READS.items()
    }


def listing() -> list[Listed]:
    """Every tool: the commands that write, in `commands --json`'s order, then the ones that read."""
    return [listed for _, listed in writing().values()] + list(reading().values())


def known(name: str) -> bool:
    return name in writing() or name in READS


def call(desk: Desk, name: str, arguments: dict[str, Any]) -> Reply:
    """Run tool NAME with ARGUMENTS in a ledger of its own; a failure raises as the CLI's command would."""
    if name in READS:
        read = READS[name]
        try:
            asked = read.arguments.model_validate(arguments, strict=True)
        except ValidationError as error:
            from ...ledger.application.commands import problem

            raise BadInput(f"{name}: {problem(error)}") from None
        with desk.ledger() as ledger:
            reply = read.answer(ledger, asked)
            return _built(reply)
    command, _ = writing()[name]
    if "command" in arguments:  # the tool names its command: a document's own key would contradict it
        raise BadInput(f"{command}: unknown key 'command'")
    with desk.ledger(writing=True) as ledger:
        return _built(ledger.execute_document({**arguments, "command": command}))


def _built(reply: Reply) -> Reply:
    """REPLY with its document and sentences built while its ledger is open (both are read when first asked)."""
    from ...ledger.application.commands import Reply

    return Reply.of(reply.document, reply.text)
