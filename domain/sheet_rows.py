"""A sheet as rows of a table people read: each field the system uses for this kind of character, its
value in words (weapons as the system's players write them, "an initiate", never a stored structure).
Pure: it reads the sheet model alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import Model

# The words for a thing a sheet holds that is not a number or a name
WORDS: dict[str, tuple[str, str]] = {
    "initiate": ("an initiate", "not an initiate"),
    "shaman": ("a shaman", "not a shaman"),
}
HIDDEN = frozenset({"kind", "name"})


def sheet_rows(system: str, sheet: Model) -> list[dict[str, Any]]:
    """`[{"label", "value"}]`, a group (traits, passions, skills) as `{"label", "rows": [...]}`."""
    dumped = sheet.model_dump(mode="json", exclude_none=True)
    used = _used(system, sheet)
    weapons = _weapon_words(system)
    rows: list[dict[str, Any]] = []
    for key, value in dumped.items():
        if key in HIDDEN or (used is not None and key not in used):
            continue
        if key == "weapons" and isinstance(value, list):
            shown = "; ".join(weapons(w) for w in getattr(sheet, "weapons", ())) or "none"
            rows.append({"label": label(key), "value": shown})
        elif isinstance(value, dict):
            inner = [{"label": label(k), "value": words(k, v)} for k, v in value.items()]
            rows.append({"label": label(key), "rows": inner} if inner else {"label": label(key), "value": "none"})
        else:
            rows.append({"label": label(key), "value": words(key, value)})
    return rows


def label(key: str) -> str:
    return key.upper() if len(key) <= 3 else key.replace("_", " ").capitalize()


def words(key: str, value: Any) -> str:
    if isinstance(value, bool):
        said = WORDS.get(key)
        return (said[0] if value else said[1]) if said else ("yes" if value else "no")
    if isinstance(value, list):
        return ", ".join(words(key, v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{label(k).lower()} {words(k, v)}" for k, v in value.items()) or "none"
    return f"{value:,}" if isinstance(value, int) and abs(value) >= 10_000 else str(value)


def _used(system: str, sheet: Model) -> frozenset[str] | None:
    """The fields this kind of sheet uses (None: all): a Potestas creature has no hardness, an object no
    attack bonus (the seed's Objects)."""
    if system != "potestas":
        return None
    from .potestas.sheet import CHARACTER_KEYS, OBJECT_KEYS

    return frozenset(OBJECT_KEYS if getattr(sheet, "kind", "character") == "object" else CHARACTER_KEYS)


def _weapon_words(system: str) -> Callable[[Any], str]:
    if system == "potestas":
        from .potestas.sheet_text import weapon_words

        return weapon_words
    if system == "adnd2e":
        from .adnd2e.sheet_text import weapon_words as adnd_words

        return adnd_words
    return lambda weapon: str(getattr(weapon, "name", weapon))
