"""Every command that writes, as data: its document's model (by name and rule system), found without
importing the others, and the JSON Schemas `chronicle commands --json` publishes.

`CATALOGUE` maps a command's name to the modules that define it, one per rule system it differs in;
each module registers its models' handlers (`base.handles`) when imported."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from ....domain.errors import BadInput, in_words
from ....domain.registry import SYSTEMS
from ....domain.text import printable
from .base import HANDLERS, Command, Reply, handler_of, handles
from .catalogue import CATALOGUE  # command name -> "module:Class" of each variant

__all__ = [
    "CATALOGUE",
    "Command",
    "Reply",
    "document_schema",
    "handler_of",
    "handles",
    "in_systems",
    "model_for",
    "models",
    "parse",
    "published",
]


def _load(target: str) -> type[Command]:
    module, attribute = target.split(":")
    found = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
    assert issubclass(found, Command) and found in HANDLERS, target
    return found


def variants(name: str) -> list[type[Command]]:
    try:
        targets = CATALOGUE[name]
    except KeyError:
        from difflib import get_close_matches

        close = get_close_matches(name, list(CATALOGUE), n=1)
        hint = f": did you mean {close[0]!r}?" if close else ""
        raise BadInput(f"no command named {printable(name)}{hint}") from None
    return [_load(target) for target in targets]


@functools.cache  # a batch asks for every document's command (a name not in the catalogue raises: not cached)
def needs_system(name: str) -> bool:
    """Whether NAME's model depends on the campaign's system (several variants, or one for some systems)."""
    found = variants(name)
    return len(found) > 1 or bool(found[0].systems)


# the rule system whose commands a module of this package defines: its package's name begins it
# (`pendragon_winter`); a module named for no system's package defines every system's
SYSTEM_OF_MODULE = {spec.package: spec.name for spec in SYSTEMS}


# where a command of other systems is done in a campaign's own system, said when it is asked for there
ELSEWHERE = {
    ("attack", "pendragon-pass"): (
        "in PenDragon Pass a blow is an opposed roll, `check NAME SKILL --opposed-by FOE:SKILL`, and its damage "
        "is a wound, `injure FOE --damage N --attacker NAME`"
    ),
}


def elsewhere(name: str, system: str) -> str:
    """ "; " and how a campaign of SYSTEM does what command NAME does elsewhere, or ""."""
    found = ELSEWHERE.get((name, system))
    return f"; {found}" if found else ""


@functools.cache  # verify asks for every signed event's command
def model_for(name: str, system: str | None) -> type[Command]:
    """The model of command NAME in a campaign of SYSTEM (None: a command of every system). Only the
    variant's own module is imported when the catalogue says which it is (not every system's)."""
    for target in CATALOGUE.get(name, ()):
        module = target.split(":")[0]
        own = SYSTEM_OF_MODULE.get(module.split("_")[0])
        if own is not None and own == system:
            return _load(target)
    found = variants(name)
    for model in found:
        if not model.systems or system in model.systems:
            return model
    where = sorted({s for model in found for s in model.systems})
    raise BadInput(
        f"{name} is a command of {' and '.join(where)} campaigns; this campaign is {system}"
        + elsewhere(name, system or "")
    )


def models() -> Iterator[type[Command]]:
    for name in CATALOGUE:
        yield from variants(name)


def parse(document: Mapping[str, Any], system: str | None) -> Command:
    """A command document as its command's model; a key or value that does not fit is bad input naming it."""
    if not isinstance(document, Mapping):
        raise BadInput("a command document is a JSON object")
    name = document.get("command")
    if not isinstance(name, str):
        raise BadInput('a command document names its command: {"command": NAME, ...}')
    model = model_for(name, system)
    fields = {key: value for key, value in document.items() if key != "command"}
    try:
        return model.model_validate(fields, strict=True)
    except ValidationError as error:
        raise BadInput(f"{name}: {problem(error)}") from None


def problem(error: ValidationError) -> str:
    """The first problem of a document, in words, naming its key."""
    first = error.errors()[0]
    key = ".".join(str(part) for part in first["loc"])
    kind = first["type"]
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):  # (a model's words, a dataclass's: a query's)
        return f"unknown key {key!r}"
    if kind in ("missing", "missing_keyword_only_argument"):
        return f"{key!r} is required"
    message = in_words(first)  # a model's own check says it in its words; the library's never reach a user
    return f"{key!r}: {message}" if key else message


def published() -> dict[str, dict[str, Any]]:
    """`commands --json`: per command, the systems it exists in, a summary and its document's JSON Schema
    (draft 2020-12; an object with top-level `properties`, a command that differs by system the union of
    its variants' fields: `union.py`)."""
    listed: dict[str, dict[str, Any]] = {}
    for name in sorted(CATALOGUE):
        found = variants(name)
        systems = sorted({s for model in found for s in model.systems}) if all(m.systems for m in found) else []
        listed[name] = {
            "systems": systems,
            "summary": summary_of(found[0]),
            "schema": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": name,
                **document_schema(found),
            },
        }
    return listed


def in_systems(name: str, systems: Collection[str] | None) -> list[type[Command]]:
    """The variants of command NAME that campaigns of SYSTEMS use (None: every system's)."""
    return [
        model for model in variants(name) if not model.systems or systems is None or set(systems) & set(model.systems)
    ]


def document_schema(found: list[type[Command]]) -> dict[str, Any]:
    """The schema of a document of FOUND, a command's variants: one object with top-level `properties`."""
    from .union import union_of

    return union_of([(model.systems, schema_of(model)) for model in found])


def summary_of(model: type[Command]) -> str:
    return (model.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")


def schema_of(model: type[Command]) -> dict[str, Any]:
    """The document's schema: the model's, with `command` required and fixed to the command's name."""
    schema = model.model_json_schema(by_alias=True)
    schema.pop("title", None)
    schema["properties"] = {"command": {"const": model.command}, **schema.get("properties", {})}
    schema["required"] = ["command", *schema.get("required", [])]
    schema["additionalProperties"] = False
    if model.systems:
        schema["description"] = f"{summary_of(model)} ({', '.join(model.systems)})"
    return schema
