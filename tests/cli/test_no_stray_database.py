"""Nothing creates a database but a write that succeeds: help, and writes that fail, in an empty folder
leave no `chronicle.db` behind."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from chronicle.cli.main import chronicle
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.store.fresh import discard_unwritten


def invoke(db, *args: str, input: str | None = None):
    return CliRunner().invoke(chronicle, ["--db", str(db), "--by", "gm", *args], input=input)


def leftovers(folder) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


@pytest.mark.parametrize("command", ["attack", "injure", "rest"])
def test_the_help_of_a_systems_command_without_a_database_makes_none(tmp_path, command):
    done = invoke(tmp_path / "chronicle.db", command, "--help")
    assert done.exit_code == 0 and "the options depend on the campaign's system" in done.stdout
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "line",
    [
        "roll d20",
        "character add Bob --stat hp=3",
        "injure Bob --damage 3",
        "rest Bob --hours 8",
        "attack Bob Ann",
        "campaign use Sartar",
        "campaign archive Sartar --reason typo",
        "participant add Bob --role gm",
        "session start",
        "note hello",
    ],
)
def test_a_write_that_fails_in_an_empty_folder_leaves_no_database(tmp_path, line):
    done = invoke(tmp_path / "chronicle.db", *line.split())
    assert done.exit_code == 2 and "no campaign yet" in done.stderr
    assert leftovers(tmp_path) == []


def test_a_failing_batch_shell_or_import_leaves_no_database(tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    db = folder / "chronicle.db"
    assert invoke(db, "batch", "-", input="roll d20\n").exit_code == 2
    assert invoke(db, "shell", input="roll d20\nnote hello\n").exit_code == 0  # the shell goes on, and ends well
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\n")
    assert invoke(db, "import", str(bad)).exit_code == 2
    assert leftovers(folder) == []


def test_a_write_that_succeeds_makes_the_database_and_a_later_failure_keeps_it(tmp_path):
    db = tmp_path / "chronicle.db"
    assert invoke(db, "campaign", "new", "Sartar", "--system", "pendragon-pass").exit_code == 0
    assert db.exists()
    assert invoke(db, "roll", "d20", "--for", "Nobody").exit_code == 2
    assert invoke(db, "--json", "campaign", "show").exit_code == 0
    assert invoke(db, "shell", input="roll d20 --bogus\ncampaign new Glorantha --system adnd2e\n").exit_code == 0
    assert "chronicle.db" in leftovers(tmp_path)


def test_in_an_empty_working_folder_a_failing_command_leaves_it_empty(tmp_path):
    """The default `./chronicle.db`, in real processes."""
    env = {key: value for key, value in os.environ.items() if key != "CHRONICLE_DB"}
    for args in (["roll", "d20"], ["injure", "--help"]):
        subprocess.run([sys.executable, "-m", "chronicle.cli", *args], cwd=tmp_path, env=env, capture_output=True)
    assert leftovers(tmp_path) == []


def test_an_empty_ledger_another_connection_holds_open_is_kept(tmp_path):
    db = str(tmp_path / "chronicle.db")
    open_ledger(db).close()
    other = sqlite3.connect(db)  # another process's, say, about to write its first events
    try:
        other.execute("SELECT count(*) FROM sqlite_master").fetchone()
        discard_unwritten(db)
        assert os.path.exists(db)
    finally:
        other.close()
    discard_unwritten(db)  # nobody has it open, and it holds no event: it goes, with its WAL files
    assert leftovers(tmp_path) == []
