"""`character show` of a character's current state, in its read-model row alone.

Reading one row needs no domain model: this module imports none (start-up is most of a `show`).
The ids come from `domain.ids`, which needs only the standard library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from ....domain.ids import campaign_id, character_id

if TYPE_CHECKING:
    from ...store.chronicle import Chronicle

INDEX_VERSION = 5  # projections/index.py's VERSION, which imports the domain (tests/ledger/test_rows.py)


def current_view(app: Chronicle, campaign: str | None, name: str) -> dict[str, Any] | None:
    """The row's view of NAME in CAMPAIGN (else the current campaign), caught up first; None when
    there is no such row or no current campaign known without the domain (the caller then takes the
    full path, which reports an unknown campaign or character)."""
    ident = campaign_id(campaign) if campaign else current_campaign(app)
    data = None if ident is None else app.characters.show(character_id(ident, name))
    return data if data is not None and data["name"] == name else None  # else renamed away from NAME, or such


def current_list(app: Chronicle, campaign: str | None, retired: bool) -> list[dict[str, Any]] | None:
    """`character list` of the rows alone (None: take the full path, as for `current_view`)."""
    ident = campaign_id(campaign) if campaign else current_campaign(app)
    rows = [] if ident is None else app.characters.list(ident)
    return [line(data) for data in rows if retired or not data.get("retired")] if rows else None


def current_campaign(app: Chronicle) -> UUID | None:
    """The campaign commands act on without `--campaign` (the index's `current_campaign`), read from
    the index's rows when they are of this version and caught up with the log, as every write leaves
    them; else None (the full path catches them up)."""
    if not caught_up(app):
        return None
    found = app.views.query(
        "SELECT id FROM chronicle_campaigns WHERE archived = 0 ORDER BY chosen DESC, position DESC LIMIT 1"
    )
    return UUID(found[0][0]) if found else None


def caught_up(app: Chronicle) -> bool:
    """Whether the index is of this version and has folded the whole log, as every write leaves it."""
    views = app.views
    return views.position("index:schema") == INDEX_VERSION and views.position("index") == app.feed.last()


def line(data: dict[str, Any]) -> dict[str, Any]:
    """A character's line in `character list`, from its view."""
    found = {k: data[k] for k in ("name", "version", "summary", "condition")}
    if data.get("retired"):
        found["retired"] = True
    return found
