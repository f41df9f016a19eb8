"""A tool's input schema as an assistant reads it best: an object with top-level `properties` (a command
whose document differs by rule system has the union of its variants' fields, each saying the systems it
applies in), every tool's optional `campaign`, and nothing a client does not need: no titles, no 64-bit
bounds (a bound the rules set stays), no runs of spaces."""

from __future__ import annotations

import json
from typing import Any

from ...domain.limits import INT64_MAX, INT64_MIN

# the campaign a call acts on, by name (the server's instructions say so once: every tool takes it)
CAMPAIGN = {"type": "string"}
# A device's seed for the fair dice (docs/fair-dice.md) is 32 bytes a signing device drew: an assistant draws
# nothing at random, so no tool lists it (a call may still carry one: the command takes it)
UNLISTED = ("device_seed",)
OBVIOUS_DEFAULTS: tuple[Any, ...] = (None, False, 0, "", [], {})  # what leaving a key out says anyway
TAKEN_BY_THE_TOOL = ("command",)  # the tool names its command


def lean(schema: Any) -> Any:
    """SCHEMA without titles, 64-bit bounds and the defaults leaving a key out says; an optional value
    (`anyOf` it or null) as the value alone (leaving the key out is the null); each description on one line."""
    if isinstance(schema, list):
        return [lean(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    found: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("properties", "patternProperties"):
            found[key] = {name: lean(part) for name, part in value.items()}
        elif key == "$defs":  # (a part's own description: its first clause; its fields say the rest)
            found[key] = {name: _first_clause(lean(part)) for name, part in value.items()}
        elif key == "title" and isinstance(value, str) or key in ("$schema", "additionalProperties") and value is False:
            continue  # (the server refuses a key a command lacks, naming it: a client need not check)
        elif (key, value) in (("maximum", INT64_MAX), ("minimum", INT64_MIN)):
            continue
        elif key == "default" and _obvious(value):
            continue
        elif key == "description" and isinstance(value, str):
            found[key] = _short(" ".join(value.split()))
        else:
            found[key] = lean(value)
    options = found.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options and len(options) == 2:
        (value,) = [option for option in options if option != {"type": "null"}]
        del found["anyOf"]
        found = {**value, **found}
    return found


LONG = 200  # characters of a field's description past which its list after a colon is left out


def _short(description: str) -> str:
    """DESCRIPTION, or when longer than LONG its words before the colon that opens a list (the list is what
    the answers and `log --json` name anyway)."""
    head, colon, _ = description.partition(": ")
    return f"{head}." if len(description) > LONG and colon and len(head) > 20 else description


def _first_clause(part: dict[str, Any]) -> dict[str, Any]:
    if "description" in part:
        part["description"] = part["description"].split(";")[0].rstrip(".") + "."
    return part


def _obvious(default: Any) -> bool:
    """Whether DEFAULT is what leaving a key out says anyway (nothing, no, empty; an object of such)."""
    if isinstance(default, dict) and default:
        return all(_obvious(value) for value in default.values())
    return any(default == same and type(default) is type(same) for same in OBVIOUS_DEFAULTS)


def command_input(schema: dict[str, Any]) -> dict[str, Any]:
    """A command document's schema (one variant) as a tool's input: lean, without `command`."""
    schema = lean(schema)
    properties = {key: value for key, value in schema.get("properties", {}).items() if key not in TAKEN_BY_THE_TOOL}
    if properties.get("name", {}).get("description") == "The character.":
        del properties["name"]["description"]  # (what a command's `name` is, unless it says otherwise)
    for key in UNLISTED:
        properties.pop(key, None)
    schema.pop("description", None)
    required = [key for key in schema.pop("required", []) if key not in TAKEN_BY_THE_TOOL]
    return {**schema, "properties": properties, **({"required": required} if required else {})}


def merged(variants: list[tuple[tuple[str, ...], dict[str, Any]]], by_system: bool = True) -> dict[str, Any]:
    """One input of several variants (each `(labels, schema)`: the systems, or a group's actions): every
    field of any of them, a field that some lack saying which have it; required what all require. A field
    described differently by system says each system's; by action, the shortest says it."""
    if len(variants) == 1:
        return variants[0][1]
    fields: dict[str, list[tuple[tuple[str, ...], dict[str, Any]]]] = {}
    definitions: dict[str, Any] = {}
    for labels, variant in variants:
        definitions.update(variant.get("$defs", {}))
        for key, value in variant["properties"].items():
            fields.setdefault(key, []).append((labels, value))
    properties = {key: _one_field(found, len(variants), by_system) for key, found in fields.items()}
    required = [
        key for key in variants[0][1].get("required", []) if all(key in s.get("required", []) for _, s in variants)
    ]
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return {**schema, "$defs": definitions} if definitions else schema


def _one_field(found: list[tuple[tuple[str, ...], dict[str, Any]]], variants: int, by_system: bool) -> dict[str, Any]:
    def shape(value: dict[str, Any]) -> str:
        return json.dumps({key: part for key, part in value.items() if key != "description"}, sort_keys=True)

    shapes = {shape(value): value for _, value in found}
    said = {value.get("description", "") for _, value in found}
    if len(found) == variants and len(said) == 1 and len(shapes) == 1:
        return found[0][1]
    if len(said) > 1 and by_system:
        description = "; ".join(
            f"{', '.join(labels)}: {value.get('description', '').rstrip('.')}" for labels, value in found
        )
    else:
        description = min((each for each in said if each), key=len, default="")
        if len(found) < variants:
            description = f"{description} ({', '.join(label for labels, _ in found for label in labels)} only)".lstrip()
    if len(shapes) > 1:  # (shapes that differ only in a default: the default is left out)
        undefaulted = [{key: part for key, part in value.items() if key != "default"} for _, value in found]
        shapes = {shape(value): value for value in undefaulted}
    if len(shapes) == 1:
        return {**next(iter(shapes.values())), "description": description}
    options = [{key: part for key, part in value.items() if key != "description"} for value in shapes.values()]
    return {"anyOf": options, "description": description}


def with_campaign(schema: dict[str, Any]) -> dict[str, Any]:
    """SCHEMA with the optional `campaign` every tool takes (and no empty `required`)."""
    schema = {**schema, "type": "object", "properties": {**schema.get("properties", {}), "campaign": CAMPAIGN}}
    if not schema.get("required", True):
        del schema["required"]
    return schema
