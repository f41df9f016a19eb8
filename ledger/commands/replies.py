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
    rules = recorded.rules
    before = rules.summary(recorded.sheet_before, recorded.condition_before)
    after = rules.summary(recorded.sheet, recorded.condition)
    condition = f"{before} -> {after}" if before != after else after
    return "\n".join(
        [
            rules.explain(recorded.event, recorded.name),
            *(f"Note: {note}" for note in [*notes, *unused_dice(recorded)]),
            f"Condition: {condition}.  [event {recorded.event_id}]",
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
