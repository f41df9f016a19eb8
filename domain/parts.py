"""Which other characters an event names: the attacker of an attack recorded on its target, the healer of
a First Aid, the mugger of a mugging, the opponent of an opposed roll. An event belongs to each of them as
well as to the character it is recorded on (docs/design.md, "Each character's own story").

Pure: it reads the event's stored inputs (a JSON object), never storage."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# the inputs that name another character taking part, in every system
ROLES = ("attacker", "healer", "mugger", "opponent")


def named(inputs: Any) -> list[str]:
    """The names (casefolded, each once) of the characters an event's inputs name besides its own; an
    opponent given as `NAME:SKILL` is NAME. Names that are no character of the campaign are kept too: the
    reader matches them against the characters it knows."""
    if not isinstance(inputs, Mapping):
        return []
    found: list[str] = []
    for role in ROLES:
        value = inputs.get(role)
        if not isinstance(value, str):
            continue
        name = value.rpartition(":")[0] if role == "opponent" and ":" in value else value
        name = name.strip().casefold()
        if name and name not in found:
            found.append(name)
    return found
