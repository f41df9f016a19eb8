"""`log` for people from rows alone: the index's positions and times, and the sentences each event was
told with when a command recorded it (projections/told.py). Like `ledger/application/views/rows.py`, this module loads
no domain model: the common `log --tail 20` at the table costs little more than start-up.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import orjson

from ....domain.ids import event_id
from ....projections.store import aggregate_id
from .rows import campaign_named, caught_up, current_campaign

if TYPE_CHECKING:
    from ...store.chronicle import Chronicle

TOLD_VERSION = 4  # projections/told.py's VERSION, which loads the domain to write rows (tests/ledger/test_told.py)
CAMPAIGN = "(SELECT position FROM chronicle_campaigns WHERE id = ?)"  # index.py's (tests/ledger/test_told.py)
PAGE = 2000  # told rows read at a time by `verify`


def told_log(
    app: Chronicle, campaign: str | None, name: str | None, tail: int | None
) -> tuple[str, list[dict[str, Any]]] | None:
    """The campaign's name and the events of `log [NAME] [--tail N]` as `stories` prints them; None when
    rows cannot tell them all as the events would (the caller then reads the events themselves): the
    read models are behind the log, NAME is not a character's exact name, an event or a correction
    has no told row, or a character was renamed since its sentences were told."""
    if campaign and not caught_up(app):
        return None
    ident = (
        campaign_named(app, campaign) if campaign else current_campaign(app)
    )  # (which checks the index is caught up)
    views = app.views
    if ident is None or views.position("told:schema") != TOLD_VERSION:
        return None
    named = views.query("SELECT name FROM chronicle_campaigns WHERE id = ?", (str(ident),))
    if not named:
        return None
    names = {
        UUID(character): who
        for character, who in views.query(
            "SELECT id, name FROM chronicle_characters WHERE campaign_id = ?", (str(ident),)
        )
    }
    originator = None
    if name is not None:
        matches = [character for character, who in names.items() if who == name]
        if len(matches) != 1:
            return None
        originator = matches[0]
    events, at = views.events
    sql = (
        f"SELECT l.position, l.time, e.originator_id, e.originator_version, t.name, t.by, t.told"
        f" FROM chronicle_log l JOIN {events} e ON e.{at} = l.position"
        f" LEFT JOIN chronicle_told t ON t.position = l.position"
    )
    if originator is None:
        found = views.query(sql + f" WHERE l.campaign = {CAMPAIGN}" + _newest(tail), (str(ident),))
    else:  # its own events, and those recorded on others that name it (projections/index.py's parts)
        parts = f"SELECT position FROM chronicle_parts WHERE campaign = {CAMPAIGN} AND name = ? ORDER BY position DESC"
        if tail is not None:  # its newest events by the events table's own key, then their rows: those alone
            own = f"SELECT {at} FROM {events} WHERE originator_id = ? ORDER BY originator_version DESC"
            own += f" LIMIT {int(tail)}"
            parts += f" LIMIT {int(tail)}"
        else:
            own = f"SELECT {at} FROM {events} WHERE originator_id = ?"
        found = views.query(
            sql + f" WHERE l.position IN ({own}) OR l.position IN ({parts})" + _newest(tail),
            (views.originator(originator), str(ident), names[originator].casefold()),
        )
    corrections = _corrections(app, ident)
    if corrections is None:
        return None
    changed = {ident for found_ in corrections.values() for c in found_ for ident in c["changed"]}
    rows = []
    for position, time, stored_id, version, told_as, by, told in reversed(found):
        oid = aggregate_id(stored_id)
        character = names.get(oid)
        if told is None or told_as != (character or "") or (changed and event_id(oid, version) in changed):
            return None  # (an event a correction changed is told again from the events: struck and corrected)
        summary = " ".join([told, *(corrected(c) for c in corrections.get(event_id(oid, version), ()))])
        rows.append(
            {
                "position": position,
                "local_time": local_time(_moment(time)),
                "by": by,
                "character": character,
                "summary": summary,
            }
        )
    return named[0][0], rows


def _newest(tail: int | None) -> str:
    """The newest `tail` events (the caller puts them oldest first), else all of them, newest first."""
    return " ORDER BY l.position DESC" + (f" LIMIT {int(tail)}" if tail is not None else "")


def _corrections(app: Chronicle, ident: UUID) -> dict[str, list[dict[str, Any]]] | None:
    """What the campaign's corrections say, by the id of the event each corrects (None: one has no row)."""
    found: dict[str, list[dict[str, Any]]] = {}
    rows = app.views.query(
        "SELECT a.position, t.by, t.amended FROM chronicle_amendments a"
        f" LEFT JOIN chronicle_told t ON t.position = a.position WHERE a.campaign = {CAMPAIGN} ORDER BY a.position",
        (str(ident),),
    )
    for position, by, amended in rows:
        if amended is None:
            return None
        data = orjson.loads(amended)
        data.setdefault("changed", [])
        found.setdefault(data["target"], []).append({"position": position, "by": by, **data})
    return found


def corrected(amendment: dict[str, Any]) -> str:
    """How a later correction changed an event, in a sentence (its own row says what it changed)."""
    verb = "Voided" if amendment["void"] else "Corrected"
    return f"{verb} at #{amendment['position']} by {amendment['by']}{because(amendment['reason'])}."


def because(reason: str) -> str:
    return f': "{" ".join(reason.split())}"' if reason.strip() else ""


def local_time(moment: datetime) -> str:
    """`2026-12-04 15:07:33 +01:00`: the moment in the local time zone (TZ), with its offset."""
    here = moment.astimezone()
    offset = here.strftime("%z")
    return f"{here:%Y-%m-%d %H:%M:%S} {offset[:3]}:{offset[3:5]}"


def _moment(stamp: str) -> datetime:
    """The index's time of an event (`projections.index.iso`: `...T17:26:55.267833+0000`)."""
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%f%z")


EDITED = (
    "it no longer tells what `log` kept of it when it was recorded: the event or those sentences were edited"
    " since (`chronicle rebuild` clears the sentences)"
)


class ToldCheck:
    """`verify`'s check of the campaign's told rows against their events, met in log order (a share of
    the aggregates' events at a time): each row must be what its event tells under the name it holds,
    so `log` from rows says what the events say. The rows are read a page at a time."""

    def __init__(self, app: Chronicle, campaign: UUID):
        self.views, self.campaign = app.views, campaign
        self.position_of = app.index.position_of  # a correction's sentences name positions (projections/told.py)
        found = self.views.query("SELECT system FROM chronicle_campaigns WHERE id = ?", (str(campaign),))
        self.system = found[0][0] if found else ""
        self._page: list[tuple[Any, ...]] = []
        self._next = 0  # the first row of the page not passed yet
        self._after, self._done = 0, self.views.position("told:schema") != TOLD_VERSION  # no rows yet

    def problem(self, position: int, event: Any) -> str | None:
        """What is wrong with the told row of the event at `position`, if it has one."""
        from ....projections.told import told_row  # (verify has loaded the domain already)

        row = self._row(position)
        if row is None:
            return None
        try:
            again = told_row(position, event, row[1], self.system, self.position_of)
        except Exception as error:  # noqa: BLE001 - an event that verified but cannot be told is reported, not raised
            return f"the event cannot be told in sentences ({type(error).__name__})"
        return None if again == tuple(row) else EDITED

    def _row(self, position: int) -> tuple[Any, ...] | None:
        page = self._page
        while not self._done and (self._next >= len(page) or page[-1][0] < position):
            page = self._page = self.views.query(
                "SELECT t.position, t.name, t.by, t.told, t.amended FROM chronicle_told t"
                " JOIN chronicle_log l ON l.position = t.position"
                f" WHERE l.campaign = {CAMPAIGN} AND t.position > ? ORDER BY t.position LIMIT {PAGE}",
                (str(self.campaign), self._after),
            )
            self._next, self._done = 0, len(page) < PAGE
            if page:
                self._after = page[-1][0]
        while self._next < len(page) and page[self._next][0] < position:
            self._next += 1
        return page[self._next] if self._next < len(page) and page[self._next][0] == position else None
