"""`character show` of a character's current state, in its read-model row alone.

Reading one row needs no domain model: this module imports none (start-up is most of a `show`).
The ids come from `domain.ids`, which needs only the standard library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from ....domain.ids import character_id

if TYPE_CHECKING:
    from ...store.chronicle import Chronicle

INDEX_VERSION = 7  # projections/index.py's VERSION, which imports the domain (tests/ledger/test_rows.py)


def current_view(app: Chronicle, campaign: str | None, name: str) -> dict[str, Any] | None:
    """The row's view of NAME in CAMPAIGN (else the current campaign), caught up first; None when
    there is no such row or no current campaign known without the domain (the caller then takes the
    full path, which reports an unknown campaign or character)."""
    ident = campaign_named(app, campaign) if campaign else current_campaign(app)
    data = None if ident is None else app.characters.show(character_id(ident, name))
    return data if data is not None and data["name"] == name else None  # else renamed away from NAME, or such


def current_list(app: Chronicle, campaign: str | None, retired: bool) -> list[dict[str, Any]] | None:
    """`character list` of the rows alone (None: take the full path, as for `current_view`)."""
    ident = campaign_named(app, campaign) if campaign else current_campaign(app)
    rows = [] if ident is None else app.characters.list(ident)
    return [line(data) for data in rows if retired or not data.get("retired")] if rows else None


def campaign_row(app: Chronicle, campaign: str | None) -> tuple[str, str, str] | None:
    """The campaign CAMPAIGN (by its exact name; else the current one) as the index's row holds it: its
    id, name and system, in one statement with the positions that say the row is current (the index of
    this version, caught up with the log); None when the rows cannot say (no row of that name, the index
    behind the log or not made yet): the caller then loads the campaign, which reports an unknown one."""
    from eventsourcing.persistence import PersistenceError

    views = app.views
    events, at = views.events
    tracking = views.tracking_table
    if campaign:
        which, named = "c.name = ?", campaign
    else:  # the user's own choice first (ledger/application/current.py), else the index's
        from ..current import chosen

        mine = chosen(app.target)
        which = "c.archived = 0 ORDER BY c.id = ? DESC, c.chosen DESC, c.position DESC LIMIT 1"
        named = str(mine) if mine is not None else ""
    try:
        found = views.query(
            f"SELECT c.id, c.name, c.system,"  # (each column named: PostgreSQL's rows are by name)
            f" (SELECT MAX(notification_id) FROM {tracking} WHERE application_name = ?) AS index_version,"
            f" (SELECT MAX(notification_id) FROM {tracking} WHERE application_name = ?) AS index_position,"
            f" (SELECT MAX({at}) FROM {events}) AS log_end FROM chronicle_campaigns c WHERE {which}",
            ("index:schema", "index", named),
        )
    except PersistenceError:  # no index yet: nothing was ever folded
        return None
    if not found:
        return None
    ident, name, system, schema, folded, last = found[0]
    if schema != INDEX_VERSION or (folded or 0) != (last or 0) or (campaign and name != campaign):
        return None
    return str(ident), name, system


def current_campaign(app: Chronicle) -> UUID | None:
    """The campaign commands act on without `--campaign` (the index's `current_campaign`), read from
    the index's rows when they are of this version and caught up with the log, as every write leaves
    them; else None (the full path catches them up)."""
    if not caught_up(app):
        return None
    from ..current import chosen  # (the standard library only)

    mine = chosen(app.target)
    if mine is not None and app.views.query(
        "SELECT 1 FROM chronicle_campaigns WHERE id = ? AND archived = 0", (str(mine),)
    ):
        return mine
    found = app.views.query(
        "SELECT id FROM chronicle_campaigns WHERE archived = 0 ORDER BY chosen DESC, position DESC LIMIT 1"
    )
    return UUID(found[0][0]) if found else None


def campaign_named(app: Chronicle, name: str) -> UUID | None:
    """The id of the campaign named exactly NAME, by the index's rows (None: the full path looks further)."""
    found = app.views.query("SELECT id FROM chronicle_campaigns WHERE name = ?", (name,))
    return UUID(found[0][0]) if len(found) == 1 else None


def caught_up(app: Chronicle) -> bool:
    """Whether the index is of this version and has folded the whole log, as every write leaves it."""
    views = app.views
    return views.position("index:schema") == INDEX_VERSION and views.position("index") == app.feed.last()


def line(data: dict[str, Any]) -> dict[str, Any]:
    """A character's line in `character list`, from its view."""
    found = {k: data[k] for k in ("name", "version", "summary", "condition")}
    found["npc"] = bool(data.get("npc"))
    if data.get("retired"):
        found["retired"] = True
    return found
