"""The tools that read: one per query an assistant may ask (each a CLI command that only reads), its
input the query's document, its answer the query's reply: the same JSON document as the command's
`--json`, and the same text for people."""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...ledger.application.queries import Query

# the queries offered as tools, by tool name (`character show` is `character_show`)
ASKED = ("log", "character show", "campaign show", "recap", "verify")
# what the server sets itself: `verify` checks in the server's own process (it forks no workers)
SETTINGS: dict[str, dict[str, Any]] = {"verify": {"workers": 1}}


def tool_name(name: str) -> str:
    """A command's or query's tool: its name with spaces and dashes as underscores (`status award`)."""
    return name.replace(" ", "_").replace("-", "_")


@functools.cache
def reads() -> dict[str, str]:
    """Each reading tool's query, by tool name."""
    return {tool_name(name): name for name in ASKED}


def described(name: str) -> tuple[str, dict[str, Any]]:
    """Query NAME's description and its document's schema, as a tool lists them."""
    from ...ledger.application.queries import model_for, schema_of

    schema = schema_of(model_for(name))
    return schema.pop("description"), schema


def asked(name: str, arguments: dict[str, Any]) -> Query:
    """Query NAME of a tool call's ARGUMENTS (bad input naming what does not fit)."""
    from ...ledger.application.queries import parse

    query = parse(arguments, name)
    return dataclasses.replace(query, **SETTINGS.get(name, {}))  # type: ignore[type-var]
