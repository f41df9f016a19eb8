"""Everything the table view reads: rows of the read models, through the queries of
`projections/queries.py`, and the events appended after a position for `/events`.

Pages never read the whole log and fold nothing: the campaign page reads the characters rows, a
character page its row, its newest events as they were told, and its Status series from the changes
model; the log page a window of positions. Only a page as of an earlier event (`?as_of=`) folds the
characters it shows up to that point, as `character show --as-of` does. Every call takes the one lock:
the read models keep folded state in memory, and the library's SQLite connections are not to be
shared between threads mid-query.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from ...domain import systems
from ...domain.campaign import SessionEnded, SessionStarted
from ...domain.errors import BadInput, ChronicleError, NotFound
from ...domain.explain import explain
from ...domain.ids import event_id
from ...domain.text import printable
from ...ledger.application.refs import position, since_position, until_position
from ...ledger.application.session import Session
from ...ledger.application.views.characters import character_view
from ...ledger.application.views.history import amendments, decoded, describe, notifications_at, struck
from ...ledger.store.chronicle import Chronicle, hide_password, open_ledger
from ...ledger.store.mapper import mapper_of
from ...ledger.store.targets import is_postgres
from ...projections import queries
from ...projections.catchup import catch_up
from ...projections.changes import Changes
from ..chart import MOST_POINTS

if TYPE_CHECKING:
    from ...domain.systems import RuleSystem

T = TypeVar("T")

STORY = 40  # events of a character's story shown on its page (the log page has the rest)
LOG_PAGE = 100
STREAM_PAGE = 500  # notifications read at a time for /events


class LedgerUnavailable(Exception):
    """The ledger cannot be opened or read: one line for the terminal and the error page."""


@dataclass
class Character:
    id: str
    name: str
    campaign: str
    campaign_id: str
    system: str
    view: dict[str, Any]
    sheet: list[str] = field(default_factory=list)  # the system's own sheet lines, when it has them
    story: list[dict[str, Any]] = field(default_factory=list)
    status: list[dict[str, Any]] = field(default_factory=list)  # Status after each change (PenDragon Pass)
    events: int = 0


@dataclass(frozen=True)
class Listed:
    """A campaign as a list of them names it: pages link the others by these alone."""

    id: str
    name: str
    system: str


@dataclass
class Campaign:
    id: str
    name: str
    system: str
    characters: list[dict[str, Any]]
    leaders: list[dict[str, Any]]
    oaths: list[dict[str, Any]]
    geasa: list[dict[str, Any]]
    kinds: list[str]
    session: str | None = None  # the session being played, if one has started and not ended
    sessions: list[tuple[int, str]] = field(default_factory=list)


class TableData:
    def __init__(self, target: str):
        self.target = target
        self._app: Chronicle | None = None
        self._changes: tuple[Chronicle, Changes] | None = None
        self._lock = threading.Lock()

    # opening ------------------------------------------------------------------------------------

    def check_target(self) -> None:
        """Serving never creates a ledger: a SQLite file that is not there is bad input."""
        if not is_postgres(self.target) and not Path(self.target).is_file():
            raise BadInput(f"no ledger at {self.target}: give an existing database with --db")

    @property
    def app(self) -> Chronicle:
        if self._app is None:
            try:
                self._app = open_ledger(self.target)
            except ChronicleError as problem:  # unreachable, damaged, or the wrong key: one line
                raise LedgerUnavailable(str(problem)) from None
        return self._app

    @property
    def postgres(self) -> bool:
        return is_postgres(self.target)

    def close(self) -> None:
        with self._lock:
            self._drop()

    def _drop(self) -> None:
        app, self._app = self._app, None
        if app is not None:
            try:
                app.close()
            except Exception:  # already broken: nothing more to give back
                pass

    def _locked(self, read: Callable[..., T], *args: Any) -> T:
        """Run one read under the lock; any storage fault becomes `LedgerUnavailable` (one line) and
        the next read opens the ledger afresh."""
        with self._lock:
            try:
                return read(*args)
            except (ChronicleError, LedgerUnavailable):
                raise
            except Exception as problem:
                self._drop()
                text = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
                raise LedgerUnavailable(hide_password(f"cannot read the ledger: {text}", self.target)) from None

    def warm(self) -> None:
        """Bring the read models up to date before the first page (a fresh import may be far behind)."""
        self._locked(lambda: (self.app.index.catch_up(), self.app.characters.catch_up(), self.changes.catch_up()))

    # pages --------------------------------------------------------------------------------------

    def listed(self) -> list[Listed]:
        """Every campaign by id, name and system, oldest first: one read of the index."""

        def read() -> list[Listed]:
            self.app.index.catch_up()
            return [Listed(*row) for row in self.app.index.campaigns()]

        return self._locked(read)

    def campaign(self, chosen: Listed, as_of: str | None = None) -> Campaign:
        """One campaign's page: its party's rows, leaders, oaths, geasa and sessions. Only this one is
        built, so a page costs the same however many campaigns the ledger holds."""
        return self._locked(self._campaign, chosen, as_of)

    def character(self, ident: str, as_of: str | None = None) -> Character | None:
        return self._locked(self._character, ident, as_of)

    def log(
        self,
        campaign_id: str,
        character: str | None,
        kind: str | None,
        as_of: str | None,
        before: int | None,
        session: int | None = None,
        since: str | None = None,
        until: str | None = None,
        tail: int | None = None,
    ) -> list[dict[str, Any]]:
        return self._locked(self._log, campaign_id, character, kind, as_of, before, session, since, until, tail)

    def current(self) -> str | None:
        """The id of the current campaign (the one `campaign use` chose, else the newest)."""
        return self._locked(lambda: queries.current_campaign(self.app.views))

    def names_of(self, ident: str) -> tuple[str, str] | None:
        """A character's campaign and name by its id (for the old `/character/{id}` address), if any."""
        try:
            oid = UUID(ident)
        except ValueError:
            return None

        def read() -> tuple[str, str] | None:
            self.app.characters.catch_up()
            row = queries.character_row(self.app.views, oid)
            return None if row is None else (row.campaign, row.name)

        return self._locked(read)

    def character_named(self, campaign: str, name: str) -> str:
        """The id of character NAME of campaign CAMPAIGN, both matched as on the command line (see
        `matching`); the index is caught up only when a name is not found in it as it stands."""

        def find() -> str:
            rows = queries.names(self.app.views)
            found = matching(list(dict.fromkeys(r[1] for r in rows)), campaign, "campaign")
            party = {r[3]: r[2] for r in rows if r[1] == found and r[3] is not None}
            return str(party[matching(list(party), name, "character")])

        def read() -> str:
            try:
                return find()
            except NotFound:
                self.app.index.catch_up()
                return find()

        return self._locked(read)

    def last_position(self) -> int:
        return self._locked(lambda: self.app.recorder.max_notification_id() or 0)

    def events_table(self) -> str:
        """The library's events table as SQL names it."""
        return self._locked(lambda: self.app.views.events[0])

    def appended(self, after: int) -> list[dict[str, Any]]:
        """The events after `after`, as `log --json` renders them, plus the campaign's name."""
        return self._locked(self._appended, after)

    # reading (under the lock) -------------------------------------------------------------------

    @property
    def changes(self) -> Changes:
        """The changes read model of the ledger open now (its folded states live as long as the app)."""
        app = self.app
        if self._changes is None or self._changes[0] is not app:
            self._changes = (app, Changes(app.views, app.feed))
        return self._changes[1]

    def _campaign(self, chosen: Listed, as_of: str | None) -> Campaign:
        index = self.app.index
        ident, name, system = chosen.id, chosen.name, chosen.system
        cid = UUID(ident)
        rows = self._rows(cid, name, as_of)
        ids = {who: character for character, who, _ in index.characters(cid)}
        for row in rows:
            row["id"] = ids.get(row["name"], "")
        leaders = sorted(
            ({"name": r["name"], "id": r["id"], "status": r["status"]["total"]} for r in rows if "status" in r),
            key=lambda r: -r["status"],
        )
        oaths = [
            {**o, "character": r["name"], "character_id": r["id"]}
            for r in rows
            for o in r.get("oaths", [])
            if o.get("state") == "open"
        ]
        geasa = [
            {**g, "character": r["name"], "character_id": r["id"]}
            for r in rows
            for g in r.get("geasa", [])
            if g.get("state") == "kept"
        ]
        sittings = [] if as_of else self._sittings(cid)
        running = next((s for s in sittings if s.end is None), None)
        return Campaign(
            ident,
            name,
            system,
            rows,
            leaders,
            oaths,
            geasa,
            kinds(systems.get(system)),
            running.name if running else None,
            [(s.number, s.name) for s in sittings],
        )

    def _rows(self, campaign_id: UUID, name: str, as_of: str | None) -> list[dict[str, Any]]:
        if as_of is None:
            return self.app.characters.list(campaign_id)

        session = self._session(name)
        bound = position(self.app.index, campaign_id, as_of)
        rows = []
        for ident, who, _ in self.app.index.characters(campaign_id):
            if self.app.index.version_at(UUID(ident), bound) is not None:
                rows.append(character_view(session, who, f"#{bound}"))
        return rows

    def _sittings(self, campaign_id: UUID) -> list[Sitting]:
        """The campaign's sessions at the table, from its few session events (read by the events table's key)."""
        found = [at for at, _, _ in queries.session_events(self.app.views, campaign_id)]
        sittings: list[Sitting] = []
        for stored in notifications_at(self.app, found):  # folded as the campaign folds them
            event = decoded(self.app, stored)
            if isinstance(event, SessionStarted):
                sittings.append(Sitting(event.number, event.title, stored.id))
            elif isinstance(event, SessionEnded) and sittings:
                sittings[-1].end = stored.id
        return sittings

    def _between(self, campaign_id: UUID, number: int) -> tuple[int, int | None]:
        """The log positions a session spans: from its start to its end (or now); nothing for no such session."""
        found = next((s for s in self._sittings(campaign_id) if s.number == number), None)
        return (0, 0) if found is None else (found.start, found.end)

    def _session(self, campaign: str) -> Session:
        return Session(self.app, campaign, "serve")

    def _character(self, ident: str, as_of: str | None) -> Character | None:
        try:
            oid = UUID(ident)
        except ValueError:
            return None
        app = self.app
        # the character's row, and its Status series's changes and their times: the log read once for the three
        catch_up([app.characters, self.changes, app.index])
        row = queries.character_row(app.views, oid)
        if row is None:
            return None
        bound = None
        if as_of is None:
            data, count = row.view, row.version
        else:  # as it was then: folded up to that point, as `character show --as-of` does
            app.index.catch_up()
            bound = position(app.index, row.campaign_id, as_of)
            data = character_view(self._session(row.campaign), row.name, f"#{bound}")
            count = queries.event_count(app.views, oid, bound)
        character = Character(
            ident,
            row.name,
            row.campaign,
            str(row.campaign_id),
            row.system,
            data,
            sheet=list(data.get("sheet_lines", [])),
            events=count,
        )
        entries = queries.newest_entries(app.views, oid, STORY, bound)
        # a story is the newest events: a correction of one of them, being newer, is among them
        corrected = any(entry.kind == "Amended" for entry in entries)
        character.story = self._told(entries, {oid: row.name}, row.system, row.campaign, row.campaign_id, corrected)
        if "status" in data:
            character.status = queries.status_series(app.views, oid, bound, MOST_POINTS, row.campaign_id)
        return character

    def _told(
        self,
        entries: list[queries.Entry],
        names: dict[UUID, str],
        system: str,
        campaign: str,
        campaign_id: UUID,
        corrected: bool | None = None,
    ) -> list[dict[str, Any]]:
        """Each entry as a line of a story or the log: in the sentences it was told with when recorded, or
        explained again where no row kept them (events of a batch or an import, or of a renamed character);
        an event a correction changed, struck and told as corrected (ledger/history.py, `struck`)."""
        changed: dict[str, list[dict[str, Any]]] = {}
        if corrected is None:  # (None: not known from the entries alone)
            corrected = bool(entries) and bool(self.app.index.amendments(campaign_id))
        if corrected:
            changed = amendments(self.app, campaign_id, changes=True)[1]
        again = [
            e.position
            for e in entries
            if e.told is None
            or e.told_name != names.get(e.originator_id, "")
            or (changed and event_id(e.originator_id, e.version) in changed)
        ]
        events = {stored.id: decoded(self.app, stored) for stored in notifications_at(self.app, sorted(again))}
        rows = []
        for entry in entries:
            who = names.get(entry.originator_id)
            event = events.get(entry.position)
            ident = event_id(entry.originator_id, entry.version)
            if event is not None and ident in changed:
                told = sentence(event, who or campaign, system, self.app)
                text = struck(event, who or "", system, told, changed[ident])
                rows.append(
                    {
                        "position": entry.position,
                        "time": entry.time[:19].replace("T", " "),
                        "by": event.by,
                        "type": entry.kind,
                        "text": text,
                        "character": who,
                        "character_id": str(entry.originator_id) if who else None,
                    }
                )
                continue
            rows.append(
                {
                    "position": entry.position,
                    "time": entry.time[:19].replace("T", " "),
                    "by": entry.by if event is None else event.by,
                    "type": entry.kind,
                    "text": entry.told if event is None else sentence(event, who or campaign, system, self.app),
                    "character": who,
                    "character_id": str(entry.originator_id) if who else None,
                }
            )
        return rows

    def _log(
        self,
        campaign_id: str,
        character: str | None,
        kind: str | None,
        as_of: str | None,
        before: int | None,
        session: int | None,
        since: str | None = None,
        until: str | None = None,
        tail: int | None = None,
    ) -> list[dict[str, Any]]:
        index = self.app.index
        index.catch_up()
        cid = UUID(campaign_id)
        found = next(((n, s) for i, n, s in index.campaigns() if i == campaign_id), None)
        if found is None:
            return []
        campaign, system = found
        names = {UUID(i): who for i, who, _ in index.characters(cid)}
        originator = None
        if character:
            originator = next((oid for oid, who in names.items() if who == character), None)
            if originator is None:
                return []
        high = position(index, cid, as_of) if as_of else None
        if before is not None:
            high = before - 1 if high is None else min(high, before - 1)
        if until:  # `log --until`: at or before an event id, #position or time
            last = until_position(index, cid, until)
            high = last if high is None else min(high, last)
        low = since_position(index, cid, since) if since else 0
        if session is not None:
            start, end = self._between(cid, session)
            low = max(low, start)
            high = end if high is None else high if end is None else min(high, end)
        entries = queries.log_entries(self.app.views, cid, originator, kind, low, high, min(tail or LOG_PAGE, LOG_PAGE))
        return self._told(entries, names, system, campaign, cid)

    def _appended(self, after: int) -> list[dict[str, Any]]:
        app = self.app
        notifications = app.recorder.select_notifications(start=after, limit=STREAM_PAGE, inclusive_of_start=False)
        if not notifications:
            return []
        app.index.catch_up()
        campaigns = {UUID(i): n for i, n, _ in app.index.campaigns()}
        names = queries.character_names(app.views)
        rows = []
        for notification in notifications:
            event = mapper_of(app).to_domain_event(notification)
            ident = event_id(event.originator_id, event.originator_version)
            who, campaign = names.get(event.originator_id, (None, None))
            row = describe(event, notification.id, ident, who, position_of=app.index.position_of)
            row["campaign"] = campaigns.get(UUID(campaign) if campaign else event.originator_id)
            row["character_id"] = str(event.originator_id) if who else None
            rows.append(row)
        return rows


def matching(names: list[str], name: str, what: str) -> str:
    """The one name matching NAME, as written or else without regard to case, as on the command line."""
    if name in names:
        return name
    folded = [known for known in names if known.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    if folded:
        raise BadInput(f"several {what}s match {printable(name[:60])} but for case: write it exactly")
    raise NotFound(f"This ledger has no {what} named {printable(name[:60])}.")


@dataclass
class Sitting:
    """A session at the table: its number and title, and the log positions of its start and end."""

    number: int
    title: str
    start: int
    end: int | None = None

    @property
    def name(self) -> str:
        return f"session {self.number}" + (f": {self.title}" if self.title else "")


def sentence(event: Any, name: str, system: str, app: Chronicle) -> str:
    """The event as a sentence (the domain's explanation; a correction names events by log positions)."""
    return explain(event, name, system, app.index.position_of)


def plain(kind: str) -> str:
    """`StatusAwarded` -> "Status awarded"."""
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).split()
    return " ".join(words).capitalize()


def kinds(rules: RuleSystem) -> list[str]:
    """The names of the events a campaign of this system can hold, for the log's filter."""
    common = ["CampaignStarted", "CharacterRegistered", "DiceRolled", "RulingChanged", "Amended"]
    return common + sorted(e.__name__ for e in rules.EVENTS)
