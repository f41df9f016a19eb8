"""What a correction changed, in the table's words: only the values that changed, however deep in an
outcome they sit (a winter's one experience roll of many, a save's roll inside its save), each named as
people name it and with its value in words; and the dice an event rolls, by the names `amend --roll` takes
and as the table says them. Pure: it reads change records and events alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .explain import _listed, field_words, outcome_words, words

# the field of an entry of a list that names it (a winter's experience entry by `what`, a wound by `id`)
NATURAL_KEYS = ("what", "id", "name", "wound", "hit", "purpose", "trait")
# values that are a rule's own code, in words, by the field that holds them
VALUE_WORDS: dict[str, dict[Any, str]] = {
    "degree": {0: "no effect", 1: "a wound", 2: "a wound that disables or staggers", 3: "a wound that drops"},
    "winner": {"self": "the roller", "opponent": "the opponent", "none": "no one"},
}
CHANGE_FIELD_WORDS = {
    "from": "old value",
    "to": "new value",
    "counts": "counts",
    "roll": "roll",
    "needed": "number needed",
    "real": "real damage",
    "temporary": "temporary damage",
    "checked": "experience check earned",
    "checks": "experience checks",
}
PURPOSE_WORDS = {
    "attack": "attack roll",
    "confirm": "confirmation roll",
    "save": "save",
    "damage": "damage dice",
    "defence": "armed defender's strike roll",
    "defence_damage": "armed defender's damage dice",
    "knockout": "knockout roll (d100)",
    "knockout_rounds": "knockout's rounds (2d8)",
    "check": "check roll",
    "opponent": "opponent's roll",
    "heal": "healing roll (d3)",
    "honor_loss": "Honor lost (d6)",
    "productivity": "productivity roll",
    "worship": "worship roll",
    "training": "training roll",
    "experience": "experience roll",
    "feat": "Feat roll",
    "flurry": "flurry's second attack roll",
    "great_blow": "great blow's extra d6",
    "distance": "disarmed weapon's distance (d6)",
    "weapon_save": "roll that saves a spell-bearing weapon",
    "shield": "shield roll",
    "spear": "spear roll",
    "spell": "spell roll",
    "grab_round": "Strength contest rolls",
    "hold_round": "Strength contest rolls",
}


def purpose_words(purpose: str) -> str:
    """A die's purpose as the table says it: `save:1` is "hit 1's save", `experience:valorous` "the
    experience roll for valorous", `damage:2:1` "hit 2's damage dice (weapon 1)"."""
    base, *keys = purpose.split(":")
    said = PURPOSE_WORDS.get(base) or field_words(base)
    if not keys:
        return f"the {said}"
    first = keys[0]
    if first.isdigit():
        weapon = f" (weapon {keys[1]})" if len(keys) > 1 and keys[1] else ""
        return f"hit {first}'s {said}{weapon}"
    return f"the {said} for {field_words(first)}"


def change_words(field: str, before: Any, after: Any) -> list[str]:
    """Each value a correction changed within the outcome field `field`, in words: "roll from 9 to 16",
    "stewardship's experience roll from 9 to 16", "result from success to partial success"."""
    return [_said(path, was, now) for path, was, now in _leaves((field,), before, after)]


def _leaves(path: tuple[str, ...], before: Any, after: Any) -> list[tuple[tuple[str, ...], Any, Any]]:
    if before == after:
        return []
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        found = []
        for key in [*before, *(k for k in after if k not in before)]:
            found += _leaves((*path, str(key)), before.get(key), after.get(key))
        return found
    if isinstance(before, list) and isinstance(after, list) and (_entries(before) or _entries(after)):
        if all(isinstance(item, Mapping) for item in [*before, *after]):
            return _paired(path, before, after)
    return [(path, before, after)]


def _entries(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, Mapping) for item in value)


def _paired(path: tuple[str, ...], before: list[Any], after: list[Any]) -> list[tuple[tuple[str, ...], Any, Any]]:
    """Two lists of entries compared entry by entry: by the field that names them, else by place."""
    key = next((k for k in NATURAL_KEYS if all(k in item for item in [*before, *after])), None)
    found: list[tuple[tuple[str, ...], Any, Any]] = []
    if key is None:
        for index in range(max(len(before), len(after))):
            was = before[index] if index < len(before) else None
            now = after[index] if index < len(after) else None
            found += _leaves((*path, f"#{index + 1}"), was, now)
        return found
    olds = {str(item[key]): item for item in before}
    news = {str(item[key]): item for item in after}
    for name in [*olds, *(n for n in news if n not in olds)]:
        found += _leaves((*path, f"@{name}"), olds.get(name), news.get(name))
    return found


def _said(path: tuple[str, ...], before: Any, after: Any) -> str:
    named = _named(path)
    leaf = path[-1]
    if isinstance(before, Mapping) and after is None:
        return f"{named}: none now"
    if isinstance(after, Mapping) and before is None:
        shown = [
            f"{CHANGE_FIELD_WORDS.get(k) or field_words(k)} {_value(k, v)}"
            for k, v in after.items()
            if v is not None and k not in NATURAL_KEYS
        ]
        return f"{named}: now {_listed(shown)}"
    if before is None and after is not None and _entry_label(leaf):
        return f"{named}: new"
    return f"{named} from {_value(leaf, before)} to {_value(leaf, after)}"


def _named(path: tuple[str, ...]) -> str:
    """ "experience", "@stewardship", "roll" as "stewardship's experience roll"; "save", "roll" as "save roll"."""
    parts: list[str] = []
    for part in path:
        label = _entry_label(part)
        if label:
            parts = [f"{label}'s {' '.join(parts)}".strip()] if parts else [label]
        else:
            said = CHANGE_FIELD_WORDS.get(part) or field_words(part)
            if not parts or parts[-1].split(" ")[-1] != said:  # a save's roll, not "roll roll"
                parts.append(said)
    return " ".join(parts)


def _entry_label(part: str) -> str:
    if part.startswith("@"):
        return field_words(part[1:])
    if part.startswith("#") and part[1:].isdigit():
        return f"entry {part[1:]}"
    return ""


def _value(field: str, value: Any) -> str:
    known = VALUE_WORDS.get(field)
    if known is not None and value in known:
        return known[value]
    if isinstance(value, Mapping):
        return words(value)
    if isinstance(value, list) and value and all(isinstance(item, Mapping) for item in value):
        return _listed([words(item) for item in value])
    return outcome_words(value)
