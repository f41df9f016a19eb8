"""docs/cli.md is every command's own `--help`; it must not fall behind the commands it describes."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronicle.cli.reference import REGENERATE, reference

PAGE = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


@pytest.fixture(scope="module")
def page() -> str:
    return reference()


def test_the_cli_reference_is_the_commands_help_as_it_is_today(page: str) -> None:
    recorded = PAGE.read_text() if PAGE.exists() else ""
    if recorded != page:
        differing = next(
            (
                f"recorded {old!r}, now {new!r}"
                for old, new in zip(recorded.splitlines(), page.splitlines(), strict=False)
                if old != new
            ),
            "one is longer than the other",
        )
        pytest.fail(f"docs/cli.md is stale ({differing}): regenerate it with `{REGENERATE}`")


def test_the_reference_covers_subcommands_and_each_systems_own_injure(page: str) -> None:
    for heading in (
        "## chronicle\n",
        "### chronicle campaign\n",
        "#### chronicle campaign new\n",
        "### chronicle injure (potestas campaign)\n",
        "### chronicle injure (adnd2e campaign)\n",
        "### chronicle injure (pendragon-pass campaign)\n",
        "### chronicle attack (potestas campaign)\n",
    ):
        assert heading in page
    assert "### chronicle attack (pendragon-pass campaign)" not in page  # PenDragon Pass has no attack
    potestas_injure = page.split("### chronicle injure (potestas campaign)")[1].split("\n### ")[0]
    assert "--save-roll" in potestas_injure and "--nonlethal" in potestas_injure
