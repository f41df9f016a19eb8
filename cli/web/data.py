"""Everything the table view reads, in one place: the read models (index and characters tables), a
character's own events for its story and Status chart, and the events appended after a position.

Pages never read the whole log: the campaign page reads the characters rows, a character page its
row and its own events (a page of them for the story), the log page a window of positions.
Every call takes the one lock: the read models keep folded state in memory, and the library's SQLite
connections are not to be shared between threads mid-query.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

import orjson

from ...domain import systems
from ...domain.campaign import GameSession
from ...domain.character import Character as Aggregate
from ...domain.character import character_id
from ...domain.character_state import CharacterState
from ...domain.errors import BadInput, ChronicleError
from ...domain.explain import explain
from ...domain.ids import event_id
from ...ledger.app import Chronicle, hide_password, open_ledger
from ...ledger.characters import character_view, load, view
from ...ledger.history import decoded, describe, notifications_at
from ...ledger.mapper import mapper_of
from ...ledger.refs import position
from ...ledger.session import Session
from ...ledger.storage import is_postgres

if TYPE_CHECKING:
    from ...domain.events import Event
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
        """Bring both read models up to date before the first page (a fresh import may be far behind)."""
        self._locked(lambda: (self.app.index.catch_up(), self.app.characters.catch_up()))

    # pages --------------------------------------------------------------------------------------

    def campaigns(self, as_of: str | None = None) -> list[Campaign]:
        return self._locked(self._campaigns, as_of)

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
    ) -> list[dict[str, Any]]:
        return self._locked(self._log, campaign_id, character, kind, as_of, before, session)

    def last_position(self) -> int:
        return self._locked(lambda: self.app.recorder.max_notification_id() or 0)

    def events_table(self) -> str:
        """The library's events table as SQL names it."""
        return self._locked(lambda: self.app.views.events[0])

    def appended(self, after: int) -> list[dict[str, Any]]:
        """The events after `after`, as `log --json` renders them, plus the campaign's name."""
        return self._locked(self._appended, after)

    # reading (under the lock) -------------------------------------------------------------------

    def _campaigns(self, as_of: str | None) -> list[Campaign]:
        index = self.app.index
        index.catch_up()
        found = []
        for ident, name, system in index.campaigns():
            rows = self._rows(UUID(ident), name, as_of)
            ids = {who: cid for cid, who, _ in index.characters(UUID(ident))}
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
            sessions = [] if as_of else self._sessions(name)
            running = next((s for s in sessions if s.finished is None), None)
            found.append(
                Campaign(
                    ident,
                    name,
                    system,
                    rows,
                    leaders,
                    oaths,
                    geasa,
                    kinds(systems.get(system)),
                    session_name(running) if running else None,
                    [(s.number, session_name(s)) for s in sessions],
                )
            )
        return found

    def _rows(self, campaign_id: UUID, name: str, as_of: str | None) -> list[dict[str, Any]]:
        if as_of is None:
            return self.app.characters.list(campaign_id)

        session = self._session(name)
        bound = position(self.app.index, campaign_id, as_of)
        rows = []
        for _, who, _ in self.app.index.characters(campaign_id):
            if self.app.index.version_at(character_id(campaign_id, who), bound) is not None:
                rows.append(character_view(session, who, f"#{bound}"))
        return rows

    def _sessions(self, campaign: str) -> list[GameSession]:
        """The campaign's sessions at the table (the campaign's own few events, not the log)."""
        return list(getattr(self._session(campaign).campaign, "sessions", ()))

    def _between(self, campaign_id: UUID, campaign: str, number: int) -> tuple[int, int | None]:
        """The log positions a session spans: from its start to its end (or now)."""
        table, at = self.app.views.events
        found = next((s for s in self._sessions(campaign) if s.number == number), None)
        if found is None:
            return 0, 0
        ends = []
        for version in (found.started, found.finished):
            rows = (
                []
                if version is None
                else self.app.views.query(
                    f"SELECT {at} FROM {table} WHERE originator_id = ? AND originator_version = ?",
                    (self.app.views.originator(campaign_id), version),
                )
            )
            ends.append(rows[0][0] if rows else None)
        return ends[0] or 0, ends[1]

    def _session(self, campaign: str) -> Session:
        return Session(self.app, campaign, "serve")

    def _character(self, ident: str, as_of: str | None) -> Character | None:
        try:
            oid = UUID(ident)
        except ValueError:
            return None
        self.app.characters.catch_up()
        found = self.app.views.query(
            "SELECT c.campaign_id, c.name, c.version, c.state, c.view, k.name AS campaign, k.system"
            " FROM chronicle_character_rows c JOIN chronicle_campaigns k ON k.id = c.campaign_id"
            " WHERE c.id = ?",
            (str(oid),),
        )
        if not found:
            return None
        campaign_id, name, version, state, shown, campaign, system = found[0]
        rules = systems.get(system)
        bound = None
        if as_of is None:
            aggregate = CharacterState.model_validate_json(state).restore(Aggregate, oid, version)
            data = orjson.loads(shown)
        else:
            session = self._session(campaign)
            bound = position(self.app.index, UUID(campaign_id), as_of)
            aggregate = load(session, name, f"#{bound}")
            data = view(session, aggregate)
        lines = getattr(rules, "sheet_lines", None)
        character = Character(
            ident,
            name,
            campaign,
            campaign_id,
            system,
            data,
            sheet=list(lines(aggregate.sheet, aggregate.condition)) if lines else [],
        )
        positions = self.app.index.log(UUID(campaign_id), oid, 0, bound)
        character.events = len(positions)
        events = list(self._events(positions[-STORY:]))
        character.story = [self._story(at, event, name, system) for at, event in reversed(events)]
        if "status" in data:
            character.status = self._status_series(positions, rules)
        return character

    def _events(self, positions: list[int]) -> Iterator[tuple[int, Event]]:
        for notification in notifications_at(self.app, positions):
            yield notification.id, decoded(self.app, notification)

    def _story(self, at: int, event: Event, name: str, system: str) -> dict[str, Any]:
        return {
            "position": at,
            "time": event.timestamp.isoformat()[:19].replace("T", " "),
            "by": event.by,
            "type": type(event).__name__,
            "text": sentence(event, name, system),
        }

    def _status_series(self, positions: list[int], rules: RuleSystem) -> list[dict[str, Any]]:
        """Status after every event that changed it, folded from the character's own events only."""
        character, last, spent = None, 0, 0
        series: list[dict[str, Any]] = []
        for at, event in self._events(positions):
            if character is None:
                character = event.mutate(None)
            else:
                event.mutate(character)
            status = rules.view(character.sheet, character.condition).get("status")
            if status is None:
                return []
            if status["total"] != last or status["increases_spent"] != spent or not series:
                series.append(
                    {
                        "position": at,
                        "total": status["total"],
                        "type": type(event).__name__,
                        "spent": status["increases_spent"] > spent,
                    }
                )
                last, spent = status["total"], status["increases_spent"]
        return series

    def _log(
        self,
        campaign_id: str,
        character: str | None,
        kind: str | None,
        as_of: str | None,
        before: int | None,
        session: int | None,
    ) -> list[dict[str, Any]]:
        index, views = self.app.index, self.app.views
        index.catch_up()
        cid = UUID(campaign_id)
        campaign = next((n for i, n, _ in index.campaigns() if i == campaign_id), None)
        if campaign is None:
            return []
        names = {UUID(i): who for i, who, _ in index.characters(cid)}
        high = position(index, cid, as_of) if as_of else None
        if before is not None:
            high = before - 1 if high is None else min(high, before - 1)
        table, at = views.events
        sql = (
            f"SELECT l.position FROM chronicle_log l JOIN {table} e ON e.{at} = l.position"
            " WHERE l.campaign = (SELECT position FROM chronicle_campaigns WHERE id = ?)"
        )
        params: list[Any] = [campaign_id]
        if character:
            sql += " AND e.originator_id = ?"
            params.append(views.originator(character_id(cid, character)))
        if kind:
            sql += " AND e.topic LIKE ?"
            params.append(f"%:{kind}")
        if session is not None:
            low, end = self._between(cid, campaign, session)
            sql += " AND l.position >= ?"
            params.append(low)
            high = end if high is None else high if end is None else min(high, end)
        if high is not None:
            sql += " AND l.position <= ?"
            params.append(high)
        found = [row[0] for row in views.query(sql + f" ORDER BY l.position DESC LIMIT {LOG_PAGE}", params)]
        system = next(s for i, _, s in index.campaigns() if i == campaign_id)
        rows = []
        for where, event in self._events(sorted(found)):
            who = names.get(event.originator_id)
            row = self._story(where, event, who or campaign, system)
            row["character"], row["character_id"] = who, str(event.originator_id) if who else None
            rows.append(row)
        return rows[::-1]

    def _appended(self, after: int) -> list[dict[str, Any]]:
        app = self.app
        notifications = app.recorder.select_notifications(start=after, limit=STREAM_PAGE, inclusive_of_start=False)
        if not notifications:
            return []
        app.index.catch_up()
        names, campaigns = self._names()
        rows = []
        for notification in notifications:
            event = mapper_of(app).to_domain_event(notification)
            ident = event_id(event.originator_id, event.originator_version)
            who, campaign = names.get(event.originator_id, (None, campaigns.get(event.originator_id)))
            row = describe(event, notification.id, ident, who)
            row["campaign"] = campaign
            row["character_id"] = str(event.originator_id) if who else None
            rows.append(row)
        return rows

    def _names(self) -> tuple[dict[UUID, tuple[str, str]], dict[UUID, str]]:
        """Characters by id (their name and campaign's name), and campaigns' names by id."""
        campaigns = {UUID(i): n for i, n, _ in self.app.index.campaigns()}
        rows = self.app.views.query("SELECT id, name, campaign_id FROM chronicle_characters")
        return {UUID(i): (n, campaigns.get(UUID(c), "")) for i, n, c in rows}, campaigns


def sentence(event: Event, name: str, system: str) -> str:
    """The event as a sentence (the domain's explanation)."""
    return explain(event, name, system)


def plain(kind: str) -> str:
    """`StatusAwarded` -> "Status awarded"."""
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).split()
    return " ".join(words).capitalize()


def kinds(rules: RuleSystem) -> list[str]:
    """The names of the events a campaign of this system can hold, for the log's filter."""
    common = ["CampaignStarted", "CharacterRegistered", "DiceRolled", "RulingChanged", "Amended"]
    return common + sorted(e.__name__ for e in rules.EVENTS)


def session_name(session: GameSession) -> str:
    return f"session {session.number}" + (f": {session.title}" if session.title else "")
