"""The characters read model: one row per character with what `character show` prints.

Each row keeps the character's state (`CharacterState`, the snapshot model) and version, so a
new event is folded onto the row with the event's own `mutate`, exactly as the aggregate folds
it. The row also keeps the rendered view (`render`) so `show` and `list` read it as it is.
Catches up from the notification log with the library's tracking, like the index.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from uuid import UUID

import orjson

from .store import ViewStore

VIEW = "characters"
BATCH = 5000
REGISTERED = "chronicle.domain.character:CharacterRegistered"
COLUMNS = "id, campaign_id, name, version, kind, state, view, summary, position"

DDL = (
    "CREATE TABLE IF NOT EXISTS chronicle_character_rows (id TEXT PRIMARY KEY, campaign_id TEXT, name TEXT,"
    " version INTEGER, kind TEXT, state TEXT, view TEXT, summary TEXT, position BIGINT)",
    "CREATE INDEX IF NOT EXISTS chronicle_character_rows_campaign ON chronicle_character_rows (campaign_id, position)",
)
TABLES = ("chronicle_character_rows",)
UPSERT = (f"INSERT INTO chronicle_character_rows ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
          " ON CONFLICT (id) DO UPDATE SET version = excluded.version, state = excluded.state,"
          " view = excluded.view, summary = excluded.summary")


def render(rules: Any, character: Any) -> dict[str, Any]:
    """What `character show --json` prints for this character (the contract's shape)."""
    data = {"name": character.name, "system": character.system, "version": character.version, "kind": character.kind}
    data.update(rules.view(character.sheet, character.condition))
    data["sheet"] = character.sheet.model_dump(mode="json", exclude_none=True)
    data["summary"] = rules.summary(character.sheet, character.condition)
    return data


ROLLED = "chronicle.domain.rolls:DiceRolled"


def _rolled(app: Any, notification: Any, character: Any) -> bool:
    """Fold a free roll without building its event: `DiceRolled.apply` changes nothing, so its
    `mutate` only moves the version, `modified_on` and `head_hash` on. False (fold it the full way,
    which also raises the library's errors) unless it is the character's very next version."""
    if notification.originator_version != character.version + 1:
        return False
    state = app.mapper.decode_state(notification.state)
    if state.get("class_version", 1) != 1:
        return False
    character.version = notification.originator_version
    character.modified_on = _timestamp().validate_python(state["timestamp"])
    character.head_hash = state["hash"]
    return True


@functools.cache
def _timestamp() -> Any:
    """Pydantic's datetime parsing (as the event model's), built on first use."""
    from datetime import datetime

    from pydantic import TypeAdapter

    return TypeAdapter(datetime)


class Characters:
    def __init__(self, store: ViewStore):
        self.store = store
        store.ensure(VIEW, DDL)
        self._states: dict[UUID, Any] = {}  # characters folded so far, valid while we own the position
        self._others: set[UUID] = set()  # originators that are not characters (campaigns)
        self._position: int | None = None
        self._registered: dict[UUID, int] = {}

    def catch_up(self, progress: Callable[[int], None] | None = None, batch_size: int = BATCH) -> int:
        """Fold every notification after the tracked position into the rows; returns how many."""
        from eventsourcing.persistence import IntegrityError

        done = 0
        while True:
            start = self.store.position(VIEW)
            if start != self._position:
                self._states.clear()  # another process moved the rows on: reload them
                self._registered.clear()
            batch = self.store.app.recorder.select_notifications(start=start, limit=batch_size, inclusive_of_start=False)
            if not batch:
                self._position = start
                return done
            try:
                self._fold(batch)
            except IntegrityError:  # another process tracked this batch first: continue from its position
                self._position = None
                continue
            done += len(batch)
            if progress:
                progress(len(batch))

    def _fold(self, batch: list[Any]) -> None:
        app, states = self.store.app, self._states
        self._load([n.originator_id for n in batch])
        changed: dict[UUID, int] = {}
        for notification in batch:
            oid = notification.originator_id
            if notification.topic == REGISTERED:
                states[oid] = app.mapper.to_domain_event(notification).mutate(None)
                self._registered[oid] = notification.id
            elif oid in states:
                character = states[oid]
                if notification.topic != ROLLED or not _rolled(app, notification, character):
                    app.mapper.to_domain_event(notification).mutate(character)
            else:
                continue
            changed[oid] = notification.id
        rows = [self._row(states[oid]) for oid in changed]
        with self.store.transaction() as cursor:
            self.store.executemany(cursor, UPSERT, rows)
            self.store.track(cursor, VIEW, batch[-1].id)
        self._position = batch[-1].id

    def _row(self, character: Any) -> tuple[Any, ...]:
        from ..domain import systems
        from ..ledger.snapshots import CharacterState

        data = render(systems.get(character.system), character)
        state = CharacterState.of(character).model_dump_json()
        return (str(character.id), str(character.campaign_id), character.name, character.version, character.kind,
                state, orjson.dumps(data).decode(), data["summary"], self._registered.get(character.id, 0))

    def _load(self, originators: list[UUID]) -> None:
        """Bring the rows of these originators into memory (those not there yet)."""
        from ..domain.character import Character
        from ..ledger.snapshots import CharacterState

        unknown = list({o for o in originators if o not in self._states and o not in self._others})
        for i in range(0, len(unknown), 500):
            chunk = unknown[i:i + 500]
            marks = ", ".join("?" * len(chunk))
            found = self.store.query(f"SELECT id, version, state, position FROM chronicle_character_rows"
                                     f" WHERE id IN ({marks})", [str(o) for o in chunk])
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
        rows = self.store.query("SELECT view FROM chronicle_character_rows WHERE campaign_id = ? ORDER BY position",
                                (str(campaign_id),))
        return [orjson.loads(view) for (view,) in rows]

    def reset(self) -> None:
        """Forget every row and the position (rebuild replays from the first notification)."""
        with self.store.transaction() as cursor:
            for table in TABLES:
                self.store.execute(cursor, f"DELETE FROM {table}")
            self.store.reset(cursor, VIEW)
        self._states.clear()
        self._others.clear()
        self._registered.clear()
        self._position = None
