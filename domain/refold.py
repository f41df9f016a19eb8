"""Re-deriving a character's history: under other rulings (replay), or with corrections (amend).

Pure: given the character's events, it rebuilds the state event by event, re-deriving every
resolution from its recorded inputs and dice against the state as re-derived so far, so a
changed outcome cascades into everything after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .amendments import Amended
from .dice import Dice
from .errors import Refusal
from .events import Event, Resolution

if TYPE_CHECKING:
    from .character import Character
    from .systems import RuleSystem


@dataclass
class Directive:
    """What amendments say about one event: it no longer counts, or it has new inputs/dice."""

    void: bool = False
    inputs: dict[str, Any] | None = None
    table: dict[str, list[int]] = field(default_factory=dict)


@dataclass
class Replayed:
    version: int
    event: Resolution | None  # the event as re-derived (outcome replaced), or None when voided
    outcome: dict[str, Any] | None


def directives(events: Sequence[Event]) -> dict[int, Directive]:
    """The corrections in force: an amendment of an amendment voids or replaces that amendment."""
    by_version = {e.originator_version: e for e in events}
    found: dict[int, tuple[int, Directive]] = {}  # target version -> (amendment version, directive)
    for event in events:
        if not isinstance(event, Amended):
            continue
        target = by_version.get(event.target_version)
        directive = Directive(event.void, event.inputs, dict(event.table))
        if isinstance(target, Amended):
            earlier = target.target_version
            if event.void:
                found.pop(earlier, None)
            else:
                found[earlier] = (event.originator_version, directive)
        else:
            found[event.target_version] = (event.originator_version, directive)
    return {version: directive for version, (_, directive) in found.items()}


def refold(
    rules: RuleSystem,
    events: Sequence[Event],
    overrides: dict[str, Any] | None = None,
    corrections: dict[int, Directive] | None = None,
) -> tuple[Character, list[Replayed]]:
    """The character re-derived from `events` (its whole stream, creation first)."""
    corrections = corrections or {}
    character: Character = events[0].mutate(None)  # its creation event makes it
    replayed: list[Replayed] = []
    for event in events[1:]:
        if isinstance(event, Amended):
            continue
        directive = corrections.get(event.originator_version)
        if directive is not None and directive.void:
            replayed.append(Replayed(event.originator_version, None, None))
            continue
        if isinstance(event, Resolution):
            event = rederive(rules, character, event, overrides, directive)
            replayed.append(Replayed(event.originator_version, event, event.outcome.model_dump(mode="json")))
        event.apply(character)
    return character, replayed


def rederive(
    rules: RuleSystem,
    character: Character,
    event: Resolution,
    overrides: dict[str, Any] | None,
    directive: Directive | None,
) -> Resolution:
    rulings = rules.Rulings.model_validate({**event.rulings, **(overrides or {})})
    inputs = event.inputs
    dice = Dice.replay(event.dice)
    if directive is not None:
        if directive.inputs:
            inputs = type(event.inputs).model_validate({**event.inputs.model_dump(mode="json"), **directive.inputs})
        if directive.table:
            dice = Dice(event.dice.seed, table=directive.table, replaying=event.dice)
    try:
        outcome = type(event).derive(character.sheet, character.condition, inputs, rulings, dice)
    except Refusal as refusal:
        raise Refusal(f"re-deriving v{event.originator_version} ({type(event).__name__}): {refusal}") from None
    changed: dict[str, object] = {"inputs": inputs, "outcome": outcome}
    if overrides:  # the event as the replay decided it: under the rulings it overrode
        typed = rulings.model_dump(mode="json")
        changed["rulings"] = {**event.rulings, **{key: typed[key] for key in overrides if key in typed}}
    return event.model_copy(update=changed)


def differences(before: list[Replayed], after: list[Replayed]) -> list[dict[str, Any]]:
    """Field by field, what changed between two re-derivations of the same history."""
    changes = []
    for old, new in zip(before, after, strict=False):
        if old.outcome == new.outcome:
            continue
        if old.outcome is None or new.outcome is None:
            changes.append(
                {
                    "version": old.version,
                    "field": "counts",
                    "recorded": old.outcome is not None,
                    "replayed": new.outcome is not None,
                }
            )
            continue
        for key in sorted(set(old.outcome) | set(new.outcome)):
            if old.outcome.get(key) != new.outcome.get(key):
                changes.append(
                    {
                        "version": old.version,
                        "field": key,
                        "recorded": old.outcome.get(key),
                        "replayed": new.outcome.get(key),
                    }
                )
    return changes
