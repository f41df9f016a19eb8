"""The index read model: campaigns, characters, and one row per event (position, id key, campaign, time).

It answers "which campaign, which character, which position" without reading the history, and
catches up from the notification log (tracked, so each notification is processed exactly once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from ..domain.campaign import CampaignStarted
from ..domain.character import CharacterRegistered
from ..domain.growth import CharacterRenamed
from ..domain.ids import event_id, event_key, key_of
from ..domain.parts import named
from .catchup import BATCH, catch_up
from .kinds import Kind, UnknownEvent, remember
from .store import ViewStore, aggregate_id

if TYPE_CHECKING:  # annotations only: the protocols are not needed at run time
    from ..domain.events import Event
    from .feed import Feed, Logged

VIEW = "index"
NONCES = "chronicle_nonces"
VERSION = 7  # of the tables below: a ledger whose index was made by another version rebuilds it

# A campaign is named in the log by its position (where it started): a number, not its id's text.
# The log keeps no more than its queries need: which aggregate and version an event is, the
# events table has at the same position. Corrections are few, and looked up by every `log`:
# they have a table of their own.
TABLES = {
    # `chosen`: the position where it last became the current campaign (started, or `campaign use`), 0 never
    "chronicle_campaigns": "id TEXT NOT NULL, name TEXT NOT NULL, system TEXT, position BIGINT, chosen BIGINT,"
    " archived INTEGER",
    "chronicle_characters": "id TEXT NOT NULL, campaign_id TEXT, name TEXT, system TEXT, kind TEXT, position BIGINT,"
    " retired INTEGER",
    "chronicle_log": "position {position}, event_key BIGINT NOT NULL, campaign BIGINT NOT NULL, time TEXT",
    "chronicle_amendments": "position BIGINT NOT NULL, campaign BIGINT NOT NULL",
    # the other characters an event names (its attacker, healer, mugger, opponent: domain/parts.py), by
    # their casefolded names as the event gives them: the event belongs to their stories too
    "chronicle_parts": "position BIGINT NOT NULL, campaign BIGINT NOT NULL, name TEXT NOT NULL",
    # the nonces each campaign's signed commands spent (the events' own `signed` blocks), each with the first
    # position that carried it: a command spends its nonce in its own transaction, by a plain insert that a
    # second one of the same nonce fails (ledger/trust/nonces.py); a fold adds what the log holds, twice or not
    NONCES: "campaign TEXT NOT NULL, nonce TEXT NOT NULL, position BIGINT NOT NULL, PRIMARY KEY (campaign, nonce)",
}
INDEXES = (
    "CREATE UNIQUE INDEX IF NOT EXISTS chronicle_campaigns_id ON chronicle_campaigns (id)",
    # not unique: names are checked where campaigns start (case-insensitively) and where they are imported, and
    # a read model refusing what the log holds would stop every command (`rebuild` replaces an older, unique one)
    "CREATE INDEX IF NOT EXISTS chronicle_campaigns_name ON chronicle_campaigns (name)",
    "CREATE UNIQUE INDEX IF NOT EXISTS chronicle_characters_id ON chronicle_characters (id)",
    "CREATE INDEX IF NOT EXISTS chronicle_log_event ON chronicle_log (event_key)",
    "CREATE INDEX IF NOT EXISTS chronicle_log_campaign ON chronicle_log (campaign, position)",
    "CREATE INDEX IF NOT EXISTS chronicle_amendments_campaign ON chronicle_amendments (campaign, position)",
    "CREATE INDEX IF NOT EXISTS chronicle_parts_name ON chronicle_parts (campaign, name, position)",
)
CAMPAIGN = "(SELECT position FROM chronicle_campaigns WHERE id = ?)"
# The kinds of nearly every event: a log row needs only their envelope, the stored JSON, not the event model.
ENVELOPE = frozenset({Kind.AMENDED, Kind.RESOLVED, Kind.ROLLED, Kind.CAMPAIGN, Kind.GROWN, Kind.NOTED})


def _update(kind: Kind, originator: UUID, at: int, event: Event) -> tuple[str, tuple[Any, ...]]:
    """The statement (its table named with `{suffix}`) that a campaign's or character's change makes."""
    if kind is Kind.CHOSEN:
        return "UPDATE chronicle_campaigns{suffix} SET chosen = ? WHERE id = ?", (at, str(originator))
    if kind is Kind.ARCHIVED:
        return "UPDATE chronicle_campaigns{suffix} SET archived = 1 WHERE id = ?", (str(originator),)
    if kind is Kind.RENAMED:
        assert isinstance(event, CharacterRenamed)
        return "UPDATE chronicle_characters{suffix} SET name = ? WHERE id = ?", (event.name, str(originator))
    return "UPDATE chronicle_characters{suffix} SET retired = 1 WHERE id = ?", (str(originator),)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f%z")


def iso_text(stamp: str) -> str:
    """`iso` of a stored timestamp: the usual UTC form with microseconds ("...:SS.ffffffZ") is
    rewritten as a string, anything else is parsed first."""
    if len(stamp) == 27 and stamp[19] == "." and stamp[26] == "Z":
        return stamp[:26] + "+0000"
    return iso(datetime.fromisoformat(stamp))


class Index:
    """With a `suffix` (`rebuild`), rows go to fresh tables named with it."""

    VIEW = VIEW

    def __init__(self, store: ViewStore, feed: Feed, suffix: str = ""):
        self.store, self.feed = store, feed
        if not suffix:
            store.ensure(VIEW, VERSION, TABLES, INDEXES)
        self._campaign_of: dict[UUID, int] = {}  # aggregate -> its campaign's position
        self._started: dict[UUID, int] = {}  # campaign -> its position
        self._suffix = suffix
        self._kinds: dict[str, Kind] = {}  # by topic
        self._ids: dict[int, str] = {}  # a campaign's position -> its id
        self._updates: list[tuple[str, tuple[Any, ...]]] = []  # rows changed by the batch being folded

    def catch_up(self, progress: Callable[[int], None] | None = None, batch_size: int = BATCH) -> int:
        """Process every event after the tracked position; returns how many."""
        return catch_up([self], progress, batch_size)

    # folding -------------------------------------------------------------------------------

    def position(self) -> int:
        return self.store.position(VIEW)

    def fold(self, events: Sequence[Logged]) -> dict[str, list[tuple[Any, ...]]]:
        rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TABLES}
        add, known, kinds = rows["chronicle_log"].append, self._campaign_of, self._kinds
        spent: dict[tuple[str, str], int] = {}  # (campaign id, nonce) -> the first position carrying it
        for logged in events:
            originator, at = logged.originator_id, logged.position
            kind = kinds.get(logged.topic) or remember(kinds, logged)
            if kind in ENVELOPE:
                when = iso_text(logged.state["timestamp"])
                campaign = known.get(originator) or self._lookup(originator)
                if kind is Kind.AMENDED:
                    rows["chronicle_amendments"].append((at, campaign))
                elif kind is Kind.RESOLVED:
                    rows["chronicle_parts"] += [(at, campaign, name) for name in named(logged.state.get("inputs"))]
            else:
                campaign, when = self._fold_event(kind, logged, rows)
            add((at, event_key(originator, logged.originator_version), campaign, when))
            signed = logged.state.get("signed")
            if isinstance(signed, dict) and isinstance(signed.get("nonce"), str) and campaign:
                spent.setdefault((self._id_of(campaign), signed["nonce"]), at)
        rows[NONCES] = [(campaign, nonce, at) for (campaign, nonce), at in spent.items() if campaign]
        return rows

    def _fold_event(self, kind: Kind, logged: Logged, rows: dict[str, list[tuple[Any, ...]]]) -> tuple[int, str]:
        """The campaign position and time of an event that makes or changes a campaign's or
        character's row (the domain event is built for it), after adding or noting that change."""
        originator, at = logged.originator_id, logged.position
        match kind:
            case Kind.STARTED:
                started = logged.event()
                assert isinstance(started, CampaignStarted)
                rows["chronicle_campaigns"].append(
                    (str(originator), started.name, started.system, at, at if started.chosen else 0, 0)
                )
                self._campaign_of[originator] = self._started[originator] = at
                self._ids[at] = str(originator)
                return at, iso(started.timestamp)
            case Kind.REGISTERED:
                registered = logged.event()
                assert isinstance(registered, CharacterRegistered)
                rows["chronicle_characters"].append(
                    (
                        str(originator),
                        str(registered.campaign_id),
                        registered.name,
                        registered.system,
                        registered.kind,
                        at,
                        0,
                    )
                )
                campaign = self._campaign_of[originator] = self._start_of(registered.campaign_id)
                return campaign, iso(registered.timestamp)
            case Kind.CHOSEN | Kind.ARCHIVED | Kind.RENAMED | Kind.RETIRED:
                # the row made at the start or registration changes: after this batch's inserts
                changed = logged.event()
                self._updates.append(_update(kind, originator, at, changed))
                return self._campaign_of.get(originator) or self._lookup(originator), iso(changed.timestamp)
            case _:
                raise UnknownEvent(VIEW, logged.topic, at)

    def write(self, cursor: Any, rows: dict[str, list[tuple[Any, ...]]]) -> None:
        for name, found in rows.items():
            if name != NONCES:
                self.store.insert(cursor, name + self._suffix, found)
        # spent already (by the command that recorded them, or a share of a rebuild that folded the command's
        # other events): kept once, with the first position seen
        table = NONCES + self._suffix
        self.store.executemany(
            cursor,
            f"INSERT INTO {table} (campaign, nonce, position) VALUES (?, ?, ?) ON CONFLICT (campaign, nonce) DO UPDATE"
            f" SET position = CASE WHEN excluded.position < {table}.position THEN excluded.position"
            f" ELSE {table}.position END",
            rows.get(NONCES, []),
        )
        for statement, params in self._updates:
            self.store.execute(cursor, statement.format(suffix=self._suffix), params)
        self._updates.clear()

    def moved(self, position: int) -> None:
        return None

    def forget(self) -> None:
        self._updates.clear()  # of rows that were not written (which campaign a character is in never changes)

    def _lookup(self, originator_id: UUID) -> int:
        """The campaign position of an aggregate first seen in an earlier catch-up."""
        rows = self.store.query("SELECT campaign_id FROM chronicle_characters WHERE id = ?", (str(originator_id),))
        found = self._campaign_of[originator_id] = self._start_of(UUID(rows[0][0]) if rows else originator_id)
        return found

    def _id_of(self, campaign: int) -> str:
        """The id of the campaign at that position ("" when the log has lost its start)."""
        found = self._ids.get(campaign)
        if found is None:  # (its start, where the events table has it: a rebuild's worker fills fresh tables)
            table, at = self.store.events
            rows = self.store.query(f"SELECT originator_id FROM {table} WHERE {at} = ?", (campaign,))
            found = self._ids[campaign] = str(aggregate_id(rows[0][0])) if rows else ""
        return found

    def _start_of(self, campaign_id: UUID) -> int:
        """A campaign's position: where the events table has its first event (a rebuild's worker
        does not see every campaign start, only its share of the aggregates'). 0 when the log has
        lost it: no query finds that campaign, as nothing can open it, and the others go on."""
        if campaign_id not in self._started:
            table, at = self.store.events
            rows = self.store.query(
                f"SELECT {at} FROM {table} WHERE originator_id = ? AND originator_version = 1",
                (self.store.originator(campaign_id),),
            )
            self._started[campaign_id] = rows[0][0] if rows else 0
            if rows:
                self._ids[rows[0][0]] = str(campaign_id)
        return self._started[campaign_id]

    # queries -------------------------------------------------------------------------------

    def campaigns(self) -> list[tuple[str, str, str]]:
        return [
            tuple(r) for r in self.store.query("SELECT id, name, system FROM chronicle_campaigns ORDER BY position")
        ]

    def campaign(self, campaign_id: str) -> tuple[str, str] | None:
        """The name and system of the campaign of that id (None when there is none)."""
        rows = self.store.query("SELECT name, system FROM chronicle_campaigns WHERE id = ?", (campaign_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def campaign_named(self, name: str) -> str | None:
        """The id of the campaign of exactly that name (the oldest of a name two share: a poisoned ledger's)."""
        rows = self.store.query("SELECT id FROM chronicle_campaigns WHERE name = ? ORDER BY position LIMIT 1", (name,))
        return rows[0][0] if rows else None

    def characters(self, campaign_id: UUID) -> list[tuple[str, str, str]]:
        rows = self.store.query(
            "SELECT id, name, kind FROM chronicle_characters WHERE campaign_id = ? ORDER BY position",
            (str(campaign_id),),
        )
        return [tuple(r) for r in rows]

    def log(
        self,
        campaign_id: UUID,
        originator_id: UUID | None = None,
        since: int = 0,
        until: int | None = None,
        newest: int | None = None,
        named: str | None = None,
    ) -> list[int]:
        """The positions of the campaign's events (one aggregate's, when `originator_id`) since..until,
        oldest first; only the `newest` of them, if given (read from the newest down: a long history is
        not read whole for its last few). With `named` (that aggregate's name) also the events recorded on
        others that name it (an attack it made, a First Aid it gave)."""
        own = self._log(campaign_id, originator_id, since, until, newest)
        if originator_id is None or not named:
            return own
        sql = f"SELECT position FROM chronicle_parts WHERE campaign = {CAMPAIGN} AND name = ? AND position >= ?"
        params: list[Any] = [str(campaign_id), named.casefold(), since]
        if until is not None:
            sql += " AND position <= ?"
            params.append(until)
        sql += " ORDER BY position DESC" + ("" if newest is None else f" LIMIT {int(newest)}")
        theirs = [row[0] for row in self.store.query(sql, params)]
        both = sorted(set(own) | set(theirs))
        return both if newest is None else both[-newest:] if newest else []

    def _log(
        self, campaign_id: UUID, originator_id: UUID | None, since: int, until: int | None, newest: int | None
    ) -> list[int]:
        sql = "SELECT l.position FROM chronicle_log l"
        if originator_id is None:
            sql += f" WHERE l.campaign = {CAMPAIGN}"
            params: list[Any] = [str(campaign_id)]
        else:  # its positions, by the events table's own key (an aggregate is in one campaign only)
            table, at = self.store.events
            sql += f" JOIN {table} e ON e.{at} = l.position WHERE e.originator_id = ?"
            params = [self.store.originator(originator_id)]
        sql += " AND l.position >= ?"
        params.append(since)
        if until is not None:
            sql += " AND l.position <= ?"
            params.append(until)
        if newest is None:
            return [row[0] for row in self.store.query(sql + " ORDER BY l.position", params)]
        # one aggregate's events are in the order of its versions, which its key in the events table sorts
        order = "l.position" if originator_id is None else "e.originator_version"
        found = self.store.query(sql + f" ORDER BY {order} DESC LIMIT {int(newest)}", params)
        return [row[0] for row in reversed(found)]

    def position_pages(self, campaign_id: UUID, size: int = 20000, after: int = 0) -> Iterator[list[int]]:
        """The campaign's log positions after `after`, oldest first, a page at a time (streaming: a
        campaign of millions of events is never held whole)."""
        while True:
            page = [
                row[0]
                for row in self.store.query(
                    f"SELECT position FROM chronicle_log WHERE campaign = {CAMPAIGN} AND position > ?"
                    " ORDER BY position LIMIT ?",
                    (str(campaign_id), after, size),
                )
            ]
            if not page:
                return
            yield page
            if len(page) < size:  # the last (a write's few: one query)
                return
            after = page[-1]

    def by_event_id(self, campaign_id: UUID, ident: str) -> int | None:
        """The position of the event with that id: found by its key, told from any other event with
        the same key by its aggregate and version."""
        for at, originator, version in self._events(
            f"l.event_key = ? AND l.campaign = {CAMPAIGN}", (key_of(ident), str(campaign_id))
        ):
            if event_id(originator, version) == ident:
                return at
        return None

    def event_at(self, campaign_id: UUID, position: int) -> tuple[UUID, int] | None:
        """The aggregate and version of the campaign's event at that position."""
        found = self._events(f"l.position = ? AND l.campaign = {CAMPAIGN}", (position, str(campaign_id)))
        return found[0][1:] if found else None

    def _events(self, where: str, params: Sequence[Any]) -> list[tuple[int, UUID, int]]:
        table, at = self.store.events
        rows = self.store.query(
            f"SELECT l.position, e.originator_id, e.originator_version FROM chronicle_log l"
            f" JOIN {table} e ON e.{at} = l.position WHERE {where}",
            params,
        )
        return [(position, aggregate_id(oid), version) for position, oid, version in rows]

    def at_time(self, campaign_id: UUID, moment: str) -> int | None:
        rows = self.store.query(
            f"SELECT MAX(position) FROM chronicle_log WHERE campaign = {CAMPAIGN} AND time <= ?",
            (str(campaign_id), moment),
        )
        return rows[0][0] if rows else None

    def version_at(self, originator_id: UUID, position: int) -> int | None:
        """The aggregate's version at that log position (the events table keys events by aggregate)."""
        table, at = self.store.events
        rows = self.store.query(
            f"SELECT MAX(originator_version) FROM {table} WHERE originator_id = ? AND {at} <= ?",
            (self.store.originator(originator_id), position),
        )
        return rows[0][0] if rows else None

    def spent(self, campaign_id: UUID, nonce: str) -> int | None:
        """The first position of the campaign's command that spent NONCE, if one did."""
        rows = self.store.query(
            f"SELECT position FROM {NONCES} WHERE campaign = ? AND nonce = ?", (str(campaign_id), nonce)
        )
        return int(rows[0][0]) if rows else None

    def amendments(self, campaign_id: UUID) -> list[int]:
        """The positions of the campaign's corrections."""
        rows = self.store.query(
            f"SELECT position FROM chronicle_amendments WHERE campaign = {CAMPAIGN} ORDER BY position",
            (str(campaign_id),),
        )
        return [row[0] for row in rows]

    def current_campaign(self) -> str | None:
        """The id of the campaign commands act on without `--campaign`: the one started or chosen last
        (`campaign use`), archived ones aside; else the newest."""
        rows = self.store.query(
            "SELECT id FROM chronicle_campaigns WHERE archived = 0 ORDER BY chosen DESC, position DESC LIMIT 1"
        )
        return rows[0][0] if rows else None

    def archived(self, campaign_id: UUID) -> bool:
        rows = self.store.query("SELECT archived FROM chronicle_campaigns WHERE id = ?", (str(campaign_id),))
        return bool(rows and rows[0][0])

    def position_of(self, originator_id: UUID, version: int) -> int:
        """The log position of an aggregate's event, by the events table's own key."""
        table, at = self.store.events
        rows = self.store.query(
            f"SELECT {at} FROM {table} WHERE originator_id = ? AND originator_version = ?",
            (self.store.originator(originator_id), version),
        )
        return rows[0][0] if rows else 0

    def lacking(self) -> int:
        """How many events of the log up to this index's position it has no row for: none, unless rows were
        lost (a fold that once followed a stale position). One statement: one consistent reading."""
        table, at = self.store.events
        rows = self.store.query(
            f"SELECT (SELECT COUNT(*) FROM {table} WHERE {at} <= p.at)"  # noqa: S608 - the library's own names
            " - (SELECT COUNT(*) FROM chronicle_log WHERE position <= p.at)"
            f" FROM (SELECT COALESCE(MAX(notification_id), 0) AS at FROM {self.store.tracking_table}"
            " WHERE application_name = ?) p",
            (VIEW,),
        )
        return max(0, rows[0][0])

    def count(self, campaign_id: UUID) -> int:
        return self.store.query(f"SELECT COUNT(*) FROM chronicle_log WHERE campaign = {CAMPAIGN}", (str(campaign_id),))[
            0
        ][0]
