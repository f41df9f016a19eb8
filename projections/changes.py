"""The changes read model: a row for each event that changed what people follow of a character over
time, its Status (PenDragon Pass) and its condition (wounds, healing, death), with the values after it.

The report's "Status over time" and "Wounds and healing" and the table view's Status chart read these
rows: nothing is folded when they are read. Like the characters rows, the model folds each event onto
the character's state with the event's own `mutate`, so Status and condition are exactly what the
aggregate has; unlike them it keeps a row per change. It keeps its own states (one row a character), so
it catches up on its own, in whichever process reads it next, behind any writer.

A row's `status`, `spent` and `point` are set when Status or the increases spent changed (`point`
numbers the character's Status changes 1, 2, 3...: a chart samples every k-th without reading the
rest); `before` and `after` (the one-line summaries) when the condition changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from .catchup import catch_up
from .kinds import Kind, UnknownEvent, remember
from .store import ViewStore

if TYPE_CHECKING:  # annotations only: the protocols are not needed at run time
    from .feed import Feed, Logged

VIEW = "changes"
VERSION = 2  # of the tables below: a ledger whose rows were made by another version folds them again
TABLES = {
    "chronicle_changes": "position {position}, character_id TEXT NOT NULL, version INTEGER NOT NULL,"
    " kind TEXT NOT NULL, status BIGINT, spent BIGINT, increase INTEGER, point BIGINT, before TEXT, after TEXT",
    "chronicle_change_states": "id TEXT NOT NULL, version INTEGER NOT NULL, state TEXT NOT NULL, points BIGINT",
}
INDEXES = (
    "CREATE INDEX IF NOT EXISTS chronicle_changes_character ON chronicle_changes (character_id, position)",
    "CREATE INDEX IF NOT EXISTS chronicle_changes_point ON chronicle_changes (character_id, point)",
    "CREATE UNIQUE INDEX IF NOT EXISTS chronicle_change_states_id ON chronicle_change_states (id)",
)
UPSERT = (
    "INSERT INTO chronicle_change_states (id, version, state, points) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (id) DO UPDATE SET version = excluded.version, state = excluded.state, points = excluded.points"
)
IGNORED = frozenset({Kind.STARTED, Kind.CAMPAIGN, Kind.CHOSEN, Kind.ARCHIVED})  # the campaign's own events


@dataclass
class Followed:
    """A character as this model holds it: its aggregate, and what its last row said."""

    character: Any
    rules: Any
    sheet: Any  # the sheet and condition models last seen (when both are unchanged, so is the view)
    condition: Any
    shown: dict[str, Any]  # its view's "condition" part
    summary: str
    status: tuple[int, int] | None  # (total, increases spent), where its system keeps Status
    points: int


def _seen(character: Any, rules: Any, points: int) -> Followed:
    view = rules.view(character.sheet, character.condition)
    status = view.get("status")
    return Followed(
        character,
        rules,
        character.sheet,
        character.condition,
        view["condition"],
        rules.summary(character.sheet, character.condition),
        None if status is None else (status["total"], status["increases_spent"]),
        points,
    )


def _free_roll(logged: Logged, character: Any) -> bool:
    """A free roll that needs no event built: `DiceRolled.apply` changes nothing, so only the version moves
    (as in the characters model; this one keeps no hash or time of a character up to date)."""
    return logged.originator_version == character.version + 1 and logged.state.get("class_version", 1) == 1


class Changes:
    VIEW = VIEW

    def __init__(self, store: ViewStore, feed: Feed):
        self.store, self.feed = store, feed
        store.ensure(VIEW, VERSION, TABLES, INDEXES)
        self._followed: dict[UUID, Followed] = {}  # valid while this process owns the position
        self._others: set[UUID] = set()  # originators that are not characters (campaigns)
        self._changed: dict[UUID, None] = {}
        self._position: int | None = None
        self._kinds: dict[str, Kind] = {}

    def catch_up(self) -> int:
        """Fold every event after the tracked position; returns how many."""
        return catch_up([self])

    # folding -------------------------------------------------------------------------------

    def position(self) -> int:
        position = self.store.position(VIEW)
        if position != self._position:  # another process moved the rows on: reload the states
            self.forget()
        return position

    def fold(self, events: Sequence[Logged]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        followed, kinds, rows = self._followed, self._kinds, []
        self._load([e.originator_id for e in events])
        for logged in events:
            oid = logged.originator_id
            kind = kinds.get(logged.topic) or remember(kinds, logged)
            if kind is Kind.REGISTERED:
                followed[oid] = self._registered(logged)
                self._changed[oid] = None
            elif kind is Kind.UNKNOWN:
                raise UnknownEvent(VIEW, logged.topic, logged.position)
            elif kind not in IGNORED and oid in followed:  # (else a campaign's event, or a lost registration's)
                held = followed[oid]
                if kind is Kind.ROLLED and _free_roll(logged, held.character):
                    held.character.version = logged.originator_version  # it changes nothing else here
                else:
                    event = logged.event(folding=True)
                    event.mutate(held.character)
                    row = self._row(held, logged, type(event).__name__)
                    if row is not None:
                        rows.append(row)
                self._changed[oid] = None
        return rows, self._states()

    def _registered(self, logged: Logged) -> Followed:
        from ..domain import systems  # lazily: reading the rows needs no domain model

        character = logged.event(folding=True).mutate(None)
        return _seen(character, systems.get(character.system), 0)

    def _row(self, held: Followed, logged: Logged, kind: str) -> tuple[Any, ...] | None:
        """The row of the event just folded onto `held`, if it changed Status or the condition."""
        character = held.character
        if character.condition == held.condition and character.sheet == held.sheet:
            return None
        now = _seen(character, held.rules, held.points)
        status = now.status if now.status != held.status else None
        increase = None
        if status is not None:
            now.points += 1
            increase = int(held.status is not None and status[1] > held.status[1])
        condition = now.shown != held.shown
        before = held.summary
        self._followed[logged.originator_id] = now
        if status is None and not condition:
            return None
        return (
            logged.position,
            str(logged.originator_id),
            logged.originator_version,
            kind,
            None if status is None else status[0],
            None if status is None else status[1],
            increase,
            now.points if status is not None else None,
            before if condition else None,
            now.summary if condition else None,
        )

    def _states(self) -> list[tuple[Any, ...]]:
        from ..domain.character_state import CharacterState  # lazily, as in `_registered`

        rows = []
        for oid in self._changed:
            held = self._followed[oid]
            state = CharacterState.of(held.character).model_dump_json()
            rows.append((str(oid), held.character.version, state, held.points))
        self._changed.clear()
        return rows

    def write(self, cursor: Any, rows: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> None:
        changes, states = rows
        self.store.insert(cursor, "chronicle_changes", changes)
        self.store.executemany(cursor, UPSERT, states)

    def moved(self, position: int) -> None:
        self._position = position

    def forget(self) -> None:
        self._followed.clear()
        self._others.clear()
        self._changed.clear()
        self._position = None

    def _load(self, originators: list[UUID]) -> None:
        """Bring the states of these originators into memory (those not there yet)."""
        from ..domain import systems  # lazily, as in `_registered`
        from ..domain.character import Character
        from ..domain.character_state import CharacterState

        unknown = list({o for o in originators if o not in self._followed and o not in self._others})
        for i in range(0, len(unknown), 500):
            chunk = unknown[i : i + 500]
            marks = ", ".join("?" * len(chunk))
            found = self.store.query(
                f"SELECT id, version, state, points FROM chronicle_change_states WHERE id IN ({marks})",
                [str(o) for o in chunk],
            )
            for ident, version, state, points in found:
                oid = UUID(ident)
                character = CharacterState.model_validate_json(state).restore(Character, oid, version)
                self._followed[oid] = _seen(character, systems.get(character.system), points)
        self._others.update(o for o in unknown if o not in self._followed)
