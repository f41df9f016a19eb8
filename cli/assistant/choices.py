"""The sheet's choices as `enum`s in a tool's schema, where the campaign is known (the database holds one,
or `--campaign` names it): the values a field may take, as the table view's forms offer them.

`offered(table(ledger), command)` asks the application layer for the forms' choices of COMMAND in the campaign (a
field's values from the sheets and the system, by field: ledger/application/choices.py, whence the table
view's forms take theirs)."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...ledger.application.ledger import Ledger
    from .tools import Listed


def table(ledger: Ledger) -> Any:
    """LEDGER's campaign as its choices are read (its system and its characters' rows), or None (no campaign)."""
    from ...ledger.application.choices import table_of
    from ...ledger.application.queries import CurrentCampaign

    ident = ledger.ask(CurrentCampaign()).document.get("id")
    return table_of(ledger, ident) if ident else None


def offered(table: Any, command: str) -> dict[str, list[str]]:
    """The values each field of COMMAND may take in TABLE's campaign, by field (none known: empty)."""
    from ...ledger.application.choices import field_choices

    if table is None:
        return {}
    return {name: list(values) for name, (values, _) in field_choices(table, command, None).items() if values}


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
