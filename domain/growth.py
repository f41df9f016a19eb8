"""A character's life beyond its wounds: growth (`character set`), a new name, retirement, notes.

Growth is not a correction: a `SheetChanged` holds the sheet fields that change from this point of
the log on, so the state as of an earlier event keeps the old values and later outcomes use the new.
"""

from typing import TYPE_CHECKING, Any

from . import systems
from .errors import BadInput
from .events import Event
from .model import Model

if TYPE_CHECKING:
    from .aggregate import Aggregate
    from .character import Character
    from .systems import RuleSystem


class SheetChanged(Event):
    changes: dict[str, str]  # KEY=VALUE as the table typed them
    fields: dict[str, Any]  # the sheet's fields they set, in the sheet's JSON form (a mapping merges key by key)
    reason: str

    def apply(self, aggregate: "Character") -> None:
        aggregate.sheet = grown(systems.get(aggregate.system).Sheet, aggregate.sheet, self.fields)


class CharacterRenamed(Event):
    name: str
    previous: str
    reason: str = ""

    def apply(self, aggregate: "Character") -> None:
        aggregate.name = self.name


class CharacterCast(Event):
    """The character joins the party (`npc` false) or leaves it for the others: foes, the gm's people."""

    npc: bool
    reason: str = ""

    def apply(self, aggregate: "Character") -> None:
        aggregate.npc = self.npc


class CharacterRetired(Event):
    reason: str

    def apply(self, aggregate: "Character") -> None:
        aggregate.retired = True


class NoteTaken(Event):
    """Free text on a character or on the campaign; it changes nothing."""

    text: str

    def apply(self, aggregate: "Aggregate") -> None:
        """A note decides nothing: the aggregate's state is unchanged."""


def grown(sheet_model: type[Model], sheet: Model, fields: dict[str, Any]) -> Model:
    """`sheet` with `fields` set; a field that is a mapping (traits, skills) is updated key by key."""
    merged = sheet.model_dump(mode="json")
    for key, value in fields.items():
        current = merged.get(key)
        merged[key] = {**current, **value} if isinstance(value, dict) and isinstance(current, dict) else value
    return sheet_model.model_validate(merged)


def sheet_changes(rules: "RuleSystem", sheet: Model, stats: dict[str, str]) -> dict[str, Any]:
    """The sheet fields that KEY=VALUE strings set, checked as `character add` checks them. A system
    whose keys set more than their own field (a PenDragon trait sets its opposite) says so itself."""
    if not stats:
        raise BadInput("character set needs at least one KEY=VALUE")
    own = getattr(rules, "sheet_changes", None)
    if own is not None:
        return own(sheet, stats)
    kind = getattr(sheet, "kind", "character")
    partial = rules.parse_sheet(stats, kind=kind).model_dump(mode="json")
    baseline = rules.parse_sheet({}, kind=kind).model_dump(mode="json")  # what a parse sets by itself
    given = {key.strip().lower() for key in stats}
    changes: dict[str, Any] = {}
    for key, value in partial.items():
        before = baseline.get(key)
        if isinstance(value, dict) and isinstance(before, dict):
            inner = {k: v for k, v in value.items() if k in given or v != before.get(k)}
            if inner:
                changes[key] = inner
        elif key != "kind" and (key in given or value != before):
            changes[key] = value
    return changes
