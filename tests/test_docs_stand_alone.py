"""The README and the docs stand alone: every link they hold leads to a file of this repository (or the web),
and none names a file a user who clones it does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_to_a_file_of_the_repository(page: Path) -> None:
    for target in LINK.findall(page.read_text()):
        if target.startswith(("http://", "https://", "#")):
            continue
        found = (page.parent / target.split("#")[0]).resolve()
        assert found.is_relative_to(ROOT) and found.exists(), f"{page.name} links to {target}, not in the repository"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_no_page_points_outside_the_repository(page: Path) -> None:
    text = page.read_text()
    for outside in ("../shared", "shared/", "seeds/", *(f"{note}.md" for note in ("RULINGS", "CONTRACT"))):
        assert outside not in text, f"{page.name} names {outside}, which users do not have"
