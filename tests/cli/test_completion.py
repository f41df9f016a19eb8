"""Shell completion through Click's completion API: campaign names where a campaign is named, character
names where a character is, and a name holding a space offered as one word."""

from __future__ import annotations

import shlex

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from chronicle.cli.complete import quoted, word_start
from chronicle.cli.main import chronicle


@pytest.fixture
def ledger(run_sqlite):
    """Two campaigns (one named with a space) and characters named like neither."""
    run_sqlite("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run_sqlite("campaign", "new", "Goblin Wars", "--system", "adnd2e")
    run_sqlite("character", "add", "Goblin Chief", "--stat", "hp=20")
    run_sqlite("character", "add", "Saria", "--stat", "hp=9")
    return run_sqlite.db


def bash(line: str, shell: str = "bash") -> list[str]:
    """What `chronicle` prints for bash (or zsh) completing the last word of LINE, as its script asks."""
    words = shlex.split(line) if line.count('"') % 2 == 0 else line.split(" ")
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {"_CHRONICLE_COMPLETE": f"{shell}_complete", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    done = CliRunner().invoke(chronicle, [], env=env, prog_name="chronicle")
    assert done.exit_code == 0, done.output
    if shell == "zsh":  # type, value, help: three lines an item
        rows = done.stdout.splitlines()
        return [rows[i + 1] for i in range(0, len(rows), 3)]
    return [row.split(",", 1)[1] for row in done.stdout.splitlines() if row]


@pytest.mark.parametrize("command", ["use", "archive"])
def test_campaign_use_and_archive_offer_campaign_names_not_character_names(ledger, command):
    assert sorted(bash(f"chronicle --db {ledger} campaign {command} ")) == ['"Goblin Wars"', "Sartar"]
    assert bash(f"chronicle --db {ledger} campaign {command} S") == ["Sartar"]  # not Saria, a character
    assert bash(f"chronicle --db {ledger} campaign {command} gob") == ['"Goblin Wars"']


def test_a_character_name_with_a_space_completes_as_one_quoted_word(ledger):
    assert bash(f"chronicle --db {ledger} injure Gob") == ['"Goblin Chief"']
    assert bash(f"chronicle --db {ledger} roll d20 --for gob") == ['"Goblin Chief"']
    assert bash(f"chronicle --db {ledger} character show ") == ['"Goblin Chief"', "Saria"]


def test_a_word_typed_inside_a_quote_completes_without_another(ledger):
    """Bash keeps the quote the user opened: the name goes after it as it is."""
    assert bash(f'chronicle --db {ledger} injure "Gob') == ["Goblin Chief"]


def test_zsh_gets_names_as_they_are_and_quotes_them_itself(ledger):
    assert bash(f"chronicle --db {ledger} injure Gob", shell="zsh") == ["Goblin Chief"]


def test_the_completion_api_offers_campaign_names_for_campaign_use(ledger):
    complete = ShellComplete(chronicle, {}, "chronicle", "_CHRONICLE_COMPLETE")
    offered = complete.get_completions(["--db", ledger, "campaign", "use"], "")
    assert sorted(item.value for item in offered) == ["Goblin Wars", "Sartar"]
    offered = complete.get_completions(["--db", ledger, "injure"], "go")
    assert [item.value for item in offered] == ["Goblin Chief"]


@pytest.mark.parametrize(
    "name", ["Aric", "Goblin Chief", "Brünhilde", "Ka'rel the Red", 'The "Bold"', "Cost $5", "a\\b", "x!", ""]
)
def test_a_quoted_name_is_one_word_to_shlex_and_the_shell(name):
    assert shlex.split(quoted(name)) == [name]
    assert quoted("Goblin Chief") == '"Goblin Chief"' and quoted("Brünhilde") == "Brünhilde"


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("", 0),
        ("injure", 0),
        ("injure ", 7),
        ("injure Gob", 7),
        ('injure "Goblin Ch', 7),
        ('injure "Goblin Chief" ', 22),
        ("injure Goblin\\ Ch", 7),
        ("roll d20 --for 'Ka", 15),
    ],
)
def test_the_word_being_typed_starts_where_shlex_would_start_it(text, start):
    assert word_start(text) == start
