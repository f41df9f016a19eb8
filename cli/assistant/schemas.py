"""A tool's input schema as an assistant reads it best: the command document's schema as `commands --json`
gives it (an object with top-level `properties`), every tool's optional `campaign`, and nothing a client
does not need: no titles, no 64-bit bounds (a bound the rules set stays), no defaults that leaving a key
out says, no runs of spaces, a long description's first clause."""

from __future__ import annotations

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
        elif key == "additionalProperties" and value is True:
            continue  # (what leaving it out says)
        elif (key, value) in (("maximum", INT64_MAX), ("minimum", INT64_MIN)):
            continue
        elif key == "default" and _obvious(value):
            continue
        elif key == "description" and isinstance(value, str):
            found[key] = _short(" ".join(value.split()), schema)
        else:
            found[key] = lean(value)
    options = found.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options:
        kept = [option for option in options if option != {"type": "null"}]
        del found["anyOf"]
        found = {**kept[0], **found} if len(kept) == 1 else {"anyOf": kept, **found}
    if found.get("type") == "string" and all(isinstance(each, str) for each in found.get("enum", [None])):
        del found["type"]  # (an enum of text says it is text)
    return found


LONG = 50  # characters of a field's description past which only its first clause is said


def _short(description: str, schema: dict[str, Any]) -> str:
    """DESCRIPTION without what SCHEMA's bounds say (`(1 to 20)`), and when longer than LONG its first
    clause (up to a semicolon, a parenthesis or a colon that opens a list): the fields' names and the
    command's answer say the rest."""
    bounds = f" ({schema.get('minimum')} to {schema.get('maximum')})"
    description = description.replace(bounds, "") if "minimum" in schema else description
    if len(description) <= LONG:
        return description
    depth = 0
    for at, character in enumerate(description):
        if at >= 20 and depth == 0 and description.startswith(("; ", " (", ": "), at):
            return description[:at].rstrip(".,") + "."
        depth += {"(": 1, ")": -1}.get(character, 0)
    return description


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
    for key in UNLISTED:
        properties.pop(key, None)
    schema.pop("description", None)
    required = [key for key in schema.pop("required", []) if key not in TAKEN_BY_THE_TOOL]
    return {**schema, "properties": properties, **({"required": required} if required else {})}


def with_campaign(schema: dict[str, Any]) -> dict[str, Any]:
    """SCHEMA with the optional `campaign` every tool takes (and no empty `required`)."""
    properties = schema.get("properties", {})
    if properties.get("name", {}).get("description") == "The character.":  # (what a `name` is, unless said)
        properties = {**properties, "name": {k: v for k, v in properties["name"].items() if k != "description"}}
    schema = {**schema, "type": "object", "properties": {**properties, "campaign": CAMPAIGN}}
    if not schema.get("required", True):
        del schema["required"]
    return schema
