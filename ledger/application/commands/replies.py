"""One reply for every recorded action, in every rule system: the event's sentences, a note for each of
the table's dice the rules did not need, and the character's condition before and after."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..recorded import Recorded
from .base import Reply


def unused_dice(recorded: Recorded) -> list[str]:
    """A sentence for each of the table's dice the rules did not ask for, saying why where the system can."""
    reason_of = getattr(recorded.rules, "unused_reason", None)
    notes = []
    for purpose, faces in recorded.ignored.items():
        what = purpose.split(":")[0].replace("_", " ")
        shown = ", ".join(map(str, faces))
        why = reason_of(recorded.event, purpose) if reason_of else "the rules did not ask for it"
        notes.append(f"The table's {what} die ({shown}) was not needed: {why}.")
    return notes


def told(recorded: Recorded, notes: Sequence[str] = ()) -> str:
    """The reply for people: sentences, notes, then `Condition: before -> after.` and the event's id."""
    return told_all([recorded], notes)


def told_all(records: Sequence[Recorded], notes: Sequence[str] = ()) -> str:
    """`told` for the events one command recorded on one character, in order (an attack and its hits):
    each event's sentences, the notes, the condition before the first and after the last, their ids."""
    first, last = records[0], records[-1]
    rules = first.rules
    before = rules.summary(first.sheet_before, first.condition_before)
    after = rules.summary(last.sheet, last.condition)
    condition = f"{before} -> {after}" if before != after else after
    ids = ", ".join(r.event_id for r in records)
    return "\n".join(
        [
            *(r.sentences() for r in records),
            *(f"Note: {note}" for note in [*notes, *(n for r in records for n in unused_dice(r))]),
            f"Condition: {condition}.  [event{'s' if len(records) > 1 else ''} {ids}]",
        ]
    )


def recorded_reply(
    recorded: Recorded,
    document: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    notes: Sequence[str] = (),
) -> Reply:
    """The reply of a recorded action: its document (the recorded event's, reshaped by the system's
    `document` where its contract asks for more keys) and `told`."""
    return Reply(
        lambda: document(dict(recorded.document)) if document else dict(recorded.document),
        lambda: told(recorded, notes),
    )
