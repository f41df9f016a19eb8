"""docs/rulings.md is made from the rulings' own models; it must not fall behind the settings it describes."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Literal

import pytest
from pydantic import Field

from chronicle.cli.rulings_doc import REGENERATE, page
from chronicle.domain import systems
from chronicle.domain.model import Model

PAGE = Path(__file__).resolve().parents[1] / "docs" / "rulings.md"


@pytest.fixture(scope="module")
def made() -> str:
    return page()


def test_the_rulings_page_is_what_the_models_make_today(made: str) -> None:
    recorded = PAGE.read_text() if PAGE.exists() else ""
    if recorded != made:
        differing = next(
            (
                f"recorded {old!r}, now {new!r}"
                for old, new in zip(recorded.splitlines(), made.splitlines(), strict=False)
                if old != new
            ),
            "one is longer than the other",
        )
        pytest.fail(f"docs/rulings.md is stale ({differing}): regenerate it with `{REGENERATE}`")


def test_every_key_of_every_system_has_its_default_meaning_and_basis_on_the_page(made: str) -> None:
    for name in systems.PACKAGES:
        rulings = systems.get(name).Rulings
        section = made.split(f"(`{name}`)\n")[1].split("\n## ")[0]
        for key in rulings.model_fields:
            entry = section.split(f"### `{key}`\n")[1].split("\n### ")[0]
            assert entry.startswith("\nDefault `") and "*Basis.* " in entry, (name, key)
        assert "### Decided without a key" in section, name
    assert "`dying_dc`" in made and "Default `10_plus_rounds`; takes `10_plus_rounds`, `10_plus_prior`" in made


def test_the_page_stands_alone(made: str) -> None:
    assert "../" not in made and "RULINGS" + ".md" not in made and "seeds" not in made


def test_a_key_without_a_basis_is_an_error_not_a_gap(monkeypatch) -> None:
    class Unexplained(Model):
        flavour: Literal["sweet", "sour"] = Field("sweet", description="How it tastes.")

    monkeypatch.setattr(systems, "PACKAGES", {"tasting": "tasting"})
    monkeypatch.setattr(systems, "get", lambda name: SimpleNamespace(Rulings=Unexplained))
    with pytest.raises(ValueError, match="the tasting ruling flavour needs a description and a basis"):
        page()
