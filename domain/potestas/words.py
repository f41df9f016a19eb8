"""Small words the Potestas sentences share (explain.py, attack_text.py)."""

from __future__ import annotations

from collections.abc import Iterable


def and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def type_words(types: Iterable[str]) -> str:
    """Damage types as people say them: "cold iron", "slashing" (the `--type` names keep their `_`)."""
    return ", ".join(sorted(t.replace("_", " ") for t in types))
