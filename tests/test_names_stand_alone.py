"""What a clone holds explains itself: no comment, docstring, test or page cites a file the repository lacks
(the project's working notes) or a tracker's issue number; the facts that matter are in docs/. Tests are named
by the behaviour they hold, never by the issue or the round of work that asked for it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("chronicle", "domain", "ledger", "projections", "cli", "tests", "docs", "benchmarks")
SUFFIXES = {".py", ".md", ".toml", ".html", ".js", ".css", ".txt", ".cfg", ".json"}
# spelt in pieces, so that this file does not find itself
NOTES = ("RULINGS", "CONTRACT", "EXPLAIN_API", "FAIR_DICE_VECTORS", "EVENTSOURCING", "STYLE")
OUTSIDE = re.compile(
    "|".join(
        [
            *(rf"\b{note}\.(?:md|json)\b" for note in NOTES),
            r"\b[Ii]ssues? #?\d+",  # the word, then a number (or a list of them)
            r"\(#\d+\)",  # a number in parentheses after a hash
            "/work/" + "shared",
        ]
    )
)
HISTORY = re.compile(r"issue\d|_round|round_\d|third|second_round|_item\d")


def shipped_files() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "pyproject.toml", ROOT / "setup.py"]
    for folder in FOLDERS:
        found += [path for path in (ROOT / folder).rglob("*") if path.suffix in SUFFIXES and path.is_file()]
    return sorted(found)


@pytest.mark.parametrize("path", shipped_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_file_cites_a_note_the_clone_lacks_or_an_issue_number(path: Path) -> None:
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        cited = OUTSIDE.search(line)
        assert cited is None, f"{path.relative_to(ROOT)}:{number} cites {cited.group()!r}: say it in docs/"


def test_test_files_and_functions_are_named_by_behaviour() -> None:
    historical = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if HISTORY.search(path.stem):
            historical.append(str(path.relative_to(ROOT)))
        for name in re.findall(r"^\s*(?:async )?def (test_\w+)", path.read_text(), re.MULTILINE):
            if re.search(r"issue_?\d|_round_?\d|third_round|second_round", name):
                historical.append(f"{path.relative_to(ROOT)}::{name}")
    assert historical == []
