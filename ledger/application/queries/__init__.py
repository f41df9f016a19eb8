"""Every question a front door asks of the ledger, as data: the query models beside the command models,
one handler each (`base.answers`), asked through `Ledger.ask`, which returns the `Reply` a command
returns. Importing this package loads no domain model and no pydantic model: a handler imports what it
reads with when it runs (`character show` reads one row: start-up is most of its cost)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ....domain.errors import BadInput
from ....domain.text import printable
from ..reply import Reply
from .base import Query, answers, callers, described, handler_of

if TYPE_CHECKING:
    from .audit import WhatIf
    from .campaigns import CampaignList, CampaignReport, CampaignShow, CurrentCampaign, SessionList
    from .characters import CharacterList, CharacterShow
    from .log import Log
    from .participants import ParticipantList
    from .recap import Recap
    from .report import Report
    from .rules import SheetKeys
    from .verify import Checkpoint, Verify

__all__ = [
    "CATALOGUE",
    "COMMAND_LINES",
    "CampaignList",
    "CampaignReport",
    "CampaignShow",
    "CharacterList",
    "CharacterShow",
    "Checkpoint",
    "CurrentCampaign",
    "Log",
    "ParticipantList",
    "Query",
    "Recap",
    "Reply",
    "Report",
    "SessionList",
    "SheetKeys",
    "Verify",
    "WhatIf",
    "answers",
    "callers",
    "described",
    "handler_of",
    "model_for",
    "models",
    "parse",
    "schema_of",
]

# query name -> "module:Class" (a module of this package), as the commands' catalogue names theirs: a module
# is imported when its query is first asked for, or its model named (`queries.Log`)
CATALOGUE: dict[str, str] = {}
COMMAND_LINES: set[str] = set()  # the queries that are `chronicle NAME ...`: those commands only read


def register(name: str, target: str, command_line: bool = True) -> None:
    CATALOGUE[name] = target
    if command_line:
        COMMAND_LINES.add(name)


register("character show", "characters:CharacterShow")
register("character list", "characters:CharacterList")
register("log", "log:Log")
register("campaign show", "campaigns:CampaignShow")
register("campaign list", "campaigns:CampaignList")
register("campaign report", "campaigns:CampaignReport")
register("session list", "campaigns:SessionList")
register("participant list", "participants:ParticipantList")
register("recap", "recap:Recap")
register("report", "report:Report")
register("replay", "audit:WhatIf")  # (`replay --fork` is the command that writes)
register("verify", "verify:Verify")
register("checkpoint", "verify:Checkpoint")
# a read of the rules alone (`chronicle rules sheet`): no ledger need exist for it, so it is none of the
# command lines above, on which a missing SQLite file is bad input
register("rules sheet", "rules:SheetKeys", command_line=False)
# what no command line asks: the campaign commands act on, the table view's pages, a device's reads
register("current campaign", "campaigns:CurrentCampaign", command_line=False)
register("campaigns", "pages:Campaigns", command_line=False)
register("campaign page", "pages:CampaignPage", command_line=False)
register("character page", "pages:CharacterPage", command_line=False)
register("character address", "pages:CharacterAddress", command_line=False)
register("log page", "pages:LogPage", command_line=False)
register("appended", "pages:Appended", command_line=False)
register("participant of key", "devices:ParticipantOf", command_line=False)
register("invitation", "devices:InvitationState", command_line=False)
register("signed for", "devices:SignedFor", command_line=False)
register("fair rolls", "fair:FairRolls", command_line=False)
register("event dice", "corrections:EventDice", command_line=False)


def _load(target: str) -> type[Query]:
    module, attribute = target.split(":")
    found = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
    assert isinstance(found, type) and issubclass(found, Query), target
    return found


def model_for(name: str) -> type[Query]:
    """The model of query NAME (its module imported now if it was not)."""
    try:
        return _load(CATALOGUE[name])
    except KeyError:
        from difflib import get_close_matches

        close = get_close_matches(name, list(CATALOGUE), n=1)
        hint = f": did you mean {close[0]!r}?" if close else ""
        raise BadInput(f"no query named {printable(name)}{hint}") from None


def models() -> Iterator[type[Query]]:
    for target in CATALOGUE.values():
        yield _load(target)


def __getattr__(name: str) -> Any:
    """A query's model by its class's name (`queries.CharacterShow`), its module imported when first named."""
    for target in CATALOGUE.values():
        if target.endswith(f":{name}"):
            return _load(target)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parse(document: Mapping[str, Any], name: str | None = None) -> Query:
    """A query document (`{"query": NAME, ...}`, or its fields alone when NAME is given) as its model,
    validated as a JSON document is (strictly: `"3"` is no number); a key or value that does not fit is
    bad input naming it. A field that is the caller's own choice (`Query`) is no key of a document."""
    if not isinstance(document, Mapping):
        raise BadInput("a query document is a JSON object")
    if name is None:
        name = document.get("query")
        if not isinstance(name, str):
            raise BadInput('a query document names its query: {"query": NAME, ...}')
        document = {key: value for key, value in document.items() if key != "query"}
    model = model_for(name)
    local = callers(model)
    for key in document:
        if key in local:
            raise BadInput(f"{name}: unknown key {key!r}")
    import orjson
    from pydantic import TypeAdapter, ValidationError

    try:
        found: Query = TypeAdapter(model).validate_json(orjson.dumps(dict(document)), strict=True)
    except ValidationError as error:
        from ..commands import problem

        raise BadInput(f"{name}: {problem(error)}") from None
    except orjson.JSONEncodeError:
        raise BadInput(f"{name}: a value that is not JSON") from None
    return found


def schema_of(model: type[Query]) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a query's document, without the `query` key (a tool names it),
    and without the fields that are the caller's own choice."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(model).json_schema()
    local = callers(model)
    schema["properties"] = {key: value for key, value in schema.get("properties", {}).items() if key not in local}
    schema["required"] = [key for key in schema.get("required", []) if key not in local]
    schema.pop("title", None)
    schema["description"] = summary_of(model)
    return schema


def summary_of(model: type[Query]) -> str:
    return " ".join((model.__doc__ or "").strip().split("\n\n")[0].split())
