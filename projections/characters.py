"""The characters read model: one row per character with what `character show` prints.

Each row keeps the character's state (`CharacterState`, the snapshot model) and version, so a
new event is folded onto the row with the event's own `mutate`, exactly as the aggregate folds
it. The row also keeps the rendered view (`render`) so `show` and `list` read it as it is.
Catches up from the notification log with the library's tracking, like the index.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import orjson

from ..domain.health import health
from ..domain.json_bounds import check_document, check_int64
from ..domain.sheet_rows import sheet_rows
from ..domain.text import printable
from .catchup import BATCH, catch_up
from .store import ViewStore

if TYPE_CHECKING:  # annotations only: the protocols are not needed at run time
    from .feed import Feed, Logged

VIEW = "characters"
# of the table below and of what its rows hold (a wound's number, a knockdown ended): a ledger whose rows were
# made by another version rebuilds them
VERSION = 7  # 7: `npc`, `health` and `sheet_rows`
TABLES = {
    "chronicle_character_rows": "id TEXT NOT NULL, campaign_id TEXT, name TEXT, version INTEGER, kind TEXT,"
    " state TEXT, view TEXT, summary TEXT, position BIGINT"
}
INDEXES = (
    "CREATE UNIQUE INDEX IF NOT EXISTS chronicle_character_rows_id ON chronicle_character_rows (id)",
    "CREATE INDEX IF NOT EXISTS chronicle_character_rows_campaign ON chronicle_character_rows (campaign_id, position)",
)
COLUMNS = "id, campaign_id, name, version, kind, state, view, summary, position"
UPSERT = (
    f"INSERT INTO chronicle_character_rows ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (id) DO UPDATE SET name = excluded.name, version = excluded.version, state = excluded.state,"
    " view = excluded.view, summary = excluded.summary"
)


def render(rules: Any, character: Any) -> dict[str, Any]:
    """What `character show --json` prints for this character (the contract's shape)."""
    data = {
        "name": character.name,
        "system": character.system,
        "version": character.version,
        "kind": character.kind,
        "retired": character.retired,
        "npc": character.npc,
    }
    data.update(rules.view(character.sheet, character.condition))
    data["health"] = health(data["condition"])
    data["sheet"] = character.sheet.model_dump(mode="json", exclude_none=True)
    data["summary"] = rules.summary(character.sheet, character.condition)
    data["sheet_lines"] = rules.sheet_lines(character.sheet, character.condition)  # `show` prints them as they are
    data["sheet_rows"] = sheet_rows(character.system, character.sheet)  # the table view's sheet, in words
    return data


def _rolled(logged: Logged, character: Any) -> bool:
    """Fold a free roll without building its event: `DiceRolled.apply` changes nothing, so its
    `mutate` only moves the version, `modified_on` and `head_hash` on. False (fold it the full way,
    which also raises the library's errors) unless it is the character's very next version."""
    state = logged.state
    if logged.originator_version != character.version + 1:
        return False
    if state.get("class_version", 1) != 1:
        return False
    character.version = logged.originator_version
    character.modified_on = _timestamp().validate_python(state["timestamp"])
    character.head_hash = state["hash"]
    return True


@functools.cache
def _timestamp() -> Any:
    """Pydantic's datetime parsing (as the event model's), built on first use."""
    from pydantic import TypeAdapter  # lazily: a `show` that folds nothing imports no pydantic model

    return TypeAdapter(datetime)


class Characters:
    """With a `suffix` (`rebuild`), rows go to a fresh table named with it, each rendered once, by
    `held_rows` at the end, rather than page by page."""

    VIEW = VIEW

    def __init__(self, store: ViewStore, feed: Feed, suffix: str = ""):
        self.store, self.feed, self.deferred = store, feed, bool(suffix)
        if not suffix:
            store.ensure(VIEW, VERSION, TABLES, INDEXES)
        self._fresh = f"chronicle_character_rows{suffix}" if suffix else None  # no row to update: inserted whole
        self._states: dict[UUID, Any] = {}  # characters folded so far, valid while we own the position
        self._others: set[UUID] = set()  # originators that are not characters (campaigns)
        self._position: int | None = None
        self._read = 0  # the position last read from the store
        self._checked: set[tuple[UUID, int]] = set()  # the characters (and versions) `write_current` wrote
        self._registered: dict[UUID, int] = {}
        self._changed: dict[UUID, None] = {}  # in the order first changed
        self._kinds: dict[str, Any] = {}  # each topic's kind (projections/kinds.py)

    def catch_up(self, progress: Callable[[int], None] | None = None, batch_size: int = BATCH) -> int:
        """Fold every event after the tracked position into the rows; returns how many."""
        return catch_up([self], progress, batch_size)

    # folding -------------------------------------------------------------------------------

    def position(self) -> int:
        position = self._read = self.store.position(VIEW)
        if position != self._position:  # another process moved the rows on: reload them
            self.forget()
        return position

    def fold(self, events: Sequence[Logged]) -> list[tuple[Any, ...]]:
        from .kinds import Kind, UnknownEvent, remember  # lazily: they load the domain's models, which `show` does not

        states, changed, kinds = self._states, self._changed, self._kinds
        if not self.deferred:
            self._load([e.originator_id for e in events])
        for logged in events:
            oid = logged.originator_id
            match kinds.get(logged.topic) or remember(kinds, logged):
                case Kind.REGISTERED:
                    states[oid] = logged.event(folding=True).mutate(None)
                    self._registered[oid] = logged.position
                case (
                    Kind.RESOLVED | Kind.AMENDED | Kind.ROLLED | Kind.GROWN | Kind.RENAMED | Kind.RETIRED | Kind.NOTED
                ) as kind:
                    character = states.get(oid)
                    if character is None:  # a campaign's roll, or a character whose registration is lost
                        continue
                    if kind is not Kind.ROLLED or not _rolled(logged, character):
                        logged.event(folding=True).mutate(character)
                case Kind.STARTED | Kind.CAMPAIGN | Kind.CHOSEN | Kind.ARCHIVED:
                    continue  # the campaign's own: no character changes
                case _:
                    raise UnknownEvent(VIEW, logged.topic, logged.position)
            changed[oid] = None
        return [] if self.deferred else self.held_rows()

    def held_rows(self) -> list[tuple[Any, ...]]:
        """The rows of the characters changed since the last call."""
        rows = [self._row(self._states[oid], self._registered.get(oid, 0), strict=False) for oid in self._changed]
        self._changed.clear()
        return rows

    def write_current(
        self,
        cursor: Any,
        characters: Sequence[Any],
        registered: dict[UUID, int],
        position: int,
        after: int | None = None,
    ) -> None:
        """The rows of `characters` as a writer holds them, its own events folded, when every event after
        this view's position `after` (by default the one `position()` read last) up to `position` is one
        of theirs (`registered`: where those it registered were registered): no event is folded again.
        The library's IntegrityError, nothing written, if another process moved the position meanwhile."""
        self.write(cursor, [self._row(c, registered.get(c.id, 0)) for c in characters])
        self.store.track(cursor, VIEW, position, after=self._read if after is None else after)
        self._checked = {(c.id, c.version) for c in characters}
        self.forget()  # (its folded states, if any, are behind now)

    def write(self, cursor: Any, rows: list[tuple[Any, ...]]) -> None:
        if self._fresh:
            self.store.insert(cursor, self._fresh, rows)
        else:
            self.store.executemany(cursor, UPSERT, rows)

    def moved(self, position: int) -> None:
        self._position = position

    def forget(self) -> None:
        self._states.clear()
        self._others.clear()
        self._registered.clear()
        self._changed.clear()
        self._position = None

    def _row(self, character: Any, registered: int, strict: bool = True) -> tuple[Any, ...]:
        """The character's row. `strict` (a writer's own characters): a number beyond 64 bits in its state
        or view is bad input, and the writer's transaction writes nothing; else (what the log already
        holds, which a read model never refuses) such a number is kept as JSON writes it."""
        from ..domain import systems  # lazily, as in `fold`
        from ..domain.character_state import CharacterState

        data = render(systems.get(character.system), character)
        state = CharacterState.of(character).model_dump_json()
        whose = printable(character.name)
        try:
            view = orjson.dumps(data)
        except TypeError:  # orjson writes no integer beyond 64 bits (a derived total: hit points after the damage)
            if strict:
                check_document(data, whose)
                raise
            view = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        if strict:
            check_int64(state.encode(), whose)
            check_int64(view, whose)
        return (
            str(character.id),
            str(character.campaign_id),
            character.name,
            character.version,
            character.kind,
            state,
            view.decode(),
            data["summary"],
            registered,  # (the position it was registered at: `list` orders by it; an update keeps the first)
        )

    def check(self, aggregates: Iterable[Any]) -> None:
        """Bad input if a character among `aggregates` (a writer's, whose rows were not written from them)
        holds a number beyond 64 bits in its state or view: its row could not be written as a writer's own."""
        from ..domain.character import Character  # lazily, as in `fold`

        for character in aggregates:
            if isinstance(character, Character) and (character.id, character.version) not in self._checked:
                self._row(character, 0)

    def _load(self, originators: list[UUID]) -> None:
        """Bring the rows of these originators into memory (those not there yet)."""
        from ..domain.character import Character  # lazily, as in `fold`
        from ..domain.character_state import CharacterState

        unknown = list({o for o in originators if o not in self._states and o not in self._others})
        for i in range(0, len(unknown), 500):
            chunk = unknown[i : i + 500]
            marks = ", ".join("?" * len(chunk))
            found = self.store.query(
                f"SELECT id, version, state, position FROM chronicle_character_rows WHERE id IN ({marks})",
                [str(o) for o in chunk],
            )
            for ident, version, state, position in found:
                oid = UUID(ident)
                self._states[oid] = CharacterState.model_validate_json(state).restore(Character, oid, version)
                self._registered[oid] = position
        self._others.update(o for o in unknown if o not in self._states)

    # reading -------------------------------------------------------------------------------

    def show(self, ident: UUID) -> dict[str, Any] | None:
        self.catch_up()
        rows = self.store.query("SELECT view FROM chronicle_character_rows WHERE id = ?", (str(ident),))
        return orjson.loads(rows[0][0]) if rows else None

    def list(self, campaign_id: UUID) -> list[dict[str, Any]]:
        self.catch_up()
        rows = self.store.query(
            "SELECT view FROM chronicle_character_rows WHERE campaign_id = ? ORDER BY position", (str(campaign_id),)
        )
        return [orjson.loads(view) for (view,) in rows]
