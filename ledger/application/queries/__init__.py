"""Every question a front door asks of the ledger, as data: the query models beside the command models,
one handler each (`base.answers`), asked through `Ledger.ask`, which returns the `Reply` a command
returns. Importing this package loads no domain model and no pydantic model: a handler imports what it
reads with when it runs (`character show` reads one row: start-up is most of its cost)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....domain.errors import BadInput
from ..reply import Reply
from . import audit, campaigns, characters, devices, log, pages, participants, recap, report, verify
from .audit import WhatIf
from .base import QUERIES, Query, answers, callers, described, handler_of, model_for
from .campaigns import CampaignList, CampaignReport, CampaignShow, CurrentCampaign, SessionList
from .characters import CharacterList, CharacterShow
from .log import Log
from .participants import ParticipantList
from .recap import Recap
from .report import Report
from .verify import Checkpoint, Verify

__all__ = [
    "QUERIES",
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
    "Verify",
    "WhatIf",
    "answers",
    "callers",
    "described",
    "handler_of",
    "model_for",
    "parse",
    "schema_of",
]

_ = (
    audit,
    campaigns,
    characters,
    devices,
    log,
    pages,
    participants,
    recap,
    report,
    verify,
)  # (each registers its handlers)


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
