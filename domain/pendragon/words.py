"""Small helpers that write PenDragon Pass values as words (no reprs, no key=value)."""

from __future__ import annotations

from .resolution import Roll

RESULT_WORDS = {
    "critical": "a critical",
    "success": "a success",
    "partial_success": "a partial success",
    "failure": "a failure",
    "fumble": "a fumble",
}
NAMED = {
    "pow": "POW",
    "siz": "SIZ",
    "con": "CON",
    "dex": "DEX",
    "str": "STR",
    "app": "APP",
    "custom_own": "Custom (Own)",
}
PASSION_PREFIXES = {"loyalty_": "Loyalty", "love_": "Love", "hate_": "Hate"}


def title(name: str) -> str:
    """A sheet name as the rules write it: "Sword", "POW", "Loyalty (clan)", "Animal Lore", "Rune Lord"."""
    if name in NAMED:
        return NAMED[name]
    for prefix, passion in PASSION_PREFIXES.items():
        if name.startswith(prefix):
            return f"{passion} ({name[len(prefix) :].replace('_', ' ')})"
    return name.replace("_", " ").replace("-", " ").title()


def roll_words(roll: Roll) -> str:
    over = f" (total {roll.total})" if roll.total != roll.roll else ""
    return f"{roll.roll}{over} against {roll.value}, {RESULT_WORDS[roll.result.value]}"


def and_list(items: list[str]) -> str:
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def number(value: int) -> str:
    """A number as the sentences write it: thousands separated ("1,100 Status"), as every report does."""
    return f"{value:,}"


def quoted(text: str) -> str:
    return '"' + " ".join(text.split()) + '"'
