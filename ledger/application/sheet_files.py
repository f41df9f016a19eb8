"""A character's sheet written as a file (`character add NAME --sheet FILE`): JSON or TOML holding the keys
`--stat KEY=VALUE` takes, read into the command's document (so the document, not a path, is what is signed),
then into the stat pairs the system's sheet parser reads."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from ...domain.errors import BadInput
from ...domain.text import printable

# tables a file may group its keys in, read as their keys (`[skills] sword = 15` is `sword=15`)
GROUPS = ("stats", "statistics", "traits", "passions", "skills", "sheet")


def read_sheet_file(path: str) -> dict[str, Any]:
    """The mapping a JSON or TOML sheet file holds (TOML when its name ends in .toml, else JSON, else TOML)."""
    shown = printable(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"--sheet: no file {shown}") from None
    except (OSError, UnicodeDecodeError) as problem:
        raise BadInput(f"--sheet: {shown} cannot be read ({type(problem).__name__.lower()})") from None
    if path.lower().endswith(".toml"):
        return _toml(text, shown)
    try:
        found = json.loads(text)
    except json.JSONDecodeError as problem:
        if path.lower().endswith(".json"):
            raise BadInput(f"--sheet: {shown} is not JSON (line {problem.lineno}: {problem.msg.lower()})") from None
        return _toml(text, shown)
    if not isinstance(found, dict):
        raise BadInput(f'--sheet: {shown} must hold one object of sheet keys, such as {{"str": 14}}')
    return found


def _toml(text: str, shown: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise BadInput(f"--sheet: {shown} is neither JSON nor TOML ({str(problem)[:80]})") from None


def sheet_pairs(sheet: dict[str, Any]) -> tuple[dict[str, str], str | None, bool]:
    """The `--stat` pairs a sheet file's mapping gives, its virtues (comma-separated) and whether it is an
    object: numbers as written, true/false as 1/0, a list of weapons joined by `;`."""
    stats: dict[str, str] = {}
    virtues: str | None = None
    is_object = False
    for key, value in _flat(sheet).items():
        if key == "virtues":
            names = value if isinstance(value, list) else str(value).split(",")
            virtues = ",".join(str(name).strip() for name in names)
        elif key == "object":
            is_object = bool(value)
        else:
            stats[key] = _text(key, value)
    return stats, virtues, is_object


def _flat(sheet: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in sheet.items():
        if key in GROUPS and isinstance(value, dict):
            found.update(_flat(value))
        else:
            found[str(key)] = value
    return found


def _text(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | str):
        return str(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ";".join(value)
    shown = "a table" if isinstance(value, dict) else printable(json.dumps(value))[:40]
    raise BadInput(
        f"--sheet: {printable(key)} must be a whole number, a word or (for weapons) a list of specs, not {shown}"
    )
