"""One document schema for a command that differs by rule system: an object whose top-level `properties`
are every field any of its variants has (a client that reads only `properties` sees them all), a field
some systems lack saying which have it, a field the systems describe differently saying each system's,
and required only what every variant requires. The campaign's system picks the variant a document is
read as; a field of another system's is refused there, naming it."""

from __future__ import annotations

import json
from typing import Any

Labelled = tuple[tuple[str, ...], dict[str, Any]]  # (a variant's systems, its schema)


def union_of(variants: list[Labelled]) -> dict[str, Any]:
    """VARIANTS' schemas as one object schema (one variant: its own)."""
    if len(variants) == 1:
        return variants[0][1]
    fields: dict[str, list[Labelled]] = {}
    definitions: dict[str, Any] = {}
    for labels, variant in variants:
        definitions.update(variant.get("$defs", {}))
        for key, value in variant.get("properties", {}).items():
            fields.setdefault(key, []).append((labels, value))
    first = variants[0][1].get("required", [])
    required = [key for key in first if all(key in schema.get("required", []) for _, schema in variants)]
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {key: _one_field(found, len(variants)) for key, found in fields.items()},
        "required": required,
        "additionalProperties": False,
    }
    return {**schema, "$defs": definitions} if definitions else schema


def _one_field(found: list[Labelled], variants: int) -> dict[str, Any]:
    """One field as the variants in FOUND have it (of VARIANTS in all)."""

    def shape(value: dict[str, Any]) -> str:
        return json.dumps({key: part for key, part in value.items() if key not in ("description", "default")})

    told: dict[str, list[str]] = {}  # the systems that describe it so, by description
    for labels, value in found:
        if value.get("description"):
            told.setdefault(value["description"], []).extend(labels)
    shapes = {shape(value): value for _, value in found}
    if len(found) == variants and len({json.dumps(value) for _, value in found}) == 1:
        return found[0][1]
    if len(told) > 1:
        description = "; ".join(f"{', '.join(labels)}: {said.rstrip('.')}" for said, labels in told.items())
    else:
        description = next(iter(told), "")
    if len(found) < variants:
        description = f"{description} ({', '.join(label for labels, _ in found for label in labels)} only)".lstrip()
    defaults = {json.dumps(value.get("default")) for _, value in found}
    if len(shapes) == 1:  # (a default the systems differ in is left out: the campaign's system says it)
        (value,) = shapes.values()
        kept = {key: part for key, part in value.items() if key != "default" or len(defaults) == 1}
        return {**kept, "description": description}
    options = [
        {key: part for key, part in value.items() if key not in ("description", "default")} for value in shapes.values()
    ]
    return {"anyOf": options, "description": description}
