"""The sheet's choices as `enum`s in a tool's schema, where the campaign is known (the database holds one,
or `--campaign` names it): the values a field may take, as the table view's forms offer them.

The hook: `offered(ledger, command)` asks the application layer for the forms' choices of COMMAND in the
campaign (a field's values from the sheets and the system, by field). Until the application layer has that
function it offers none, and the schemas are the commands' own."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...ledger.application.ledger import Ledger
    from .tools import Listed


def offered(ledger: Ledger, command: str) -> dict[str, list[str]]:
    """The values each field of COMMAND may take in LEDGER's campaign, by field (none known: empty).

    HOOK: return the application layer's choices of the forms here (the function the table view's forms
    read theirs from), e.g. `return form_choices(ledger, command)`: every tool's schema takes them."""
    return {}


def with_choices(listed: Listed, choices: dict[str, list[str]]) -> Listed:
    """LISTED with each field of CHOICES given its values as an `enum` (a list of them: each item's)."""
    from dataclasses import replace

    if not choices:
        return listed
    schema: dict[str, Any] = copy.deepcopy(listed.schema)
    for field, values in choices.items():
        found = schema["properties"].get(field)
        if found is None or not values:
            continue
        target = found["items"] if found.get("type") == "array" and isinstance(found.get("items"), dict) else found
        target["enum"] = list(values)
    return replace(listed, schema=schema)
