"""A wrong `--db`: one clear line on stderr, exit 2, nothing created, and never the password."""

from __future__ import annotations

import json
import os
import stat

import pytest
from click.testing import CliRunner

from chronicle.cli.main import chronicle

SECRET = "s3cr3t-Pa55"


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(chronicle, [*args], env=env)


def assert_one_clear_line(result, *expected: str):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.output and SECRET not in result.output
    for text in expected:
        assert text in lines[0]


def test_a_file_that_is_not_a_database(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("session 12: the party meets a dragon\n" * 100)
    assert_one_clear_line(invoke("--db", str(notes), "log"), "not a chronicle database")
    assert notes.read_text().startswith("session 12")


def test_a_read_only_database(tmp_path):
    db = str(tmp_path / "ledger.db")
    assert invoke("--db", db, "campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    before = open(db, "rb").read()
    os.chmod(db, stat.S_IRUSR | stat.S_IRGRP)
    try:
        assert_one_clear_line(invoke("--db", db, "roll", "d20"), "read-only")
    finally:
        os.chmod(db, stat.S_IRUSR | stat.S_IWUSR)
    assert open(db, "rb").read() == before


def test_a_missing_directory(tmp_path):
    target = tmp_path / "no" / "such" / "ledger.db"
    assert_one_clear_line(invoke("--db", str(target), "campaign", "new", "G", "--system", "adnd2e"), "does not exist")
    assert not (tmp_path / "no").exists()


def test_a_directory(tmp_path):
    assert_one_clear_line(invoke("--db", str(tmp_path), "log"), "directory")


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://gm:{SECRET}@127.0.0.1:1/chronicle",  # nothing listens there
        f"postgresql://gm:{SECRET.replace('-', '%2D')}@127.0.0.1:1/chronicle",  # percent-encoded password
        f"postgresql://gm:{SECRET}@127.0.0.1:99999/chronicle",  # port out of range
        f"postgresql://gm:{SECRET}/x@127.0.0.1/chronicle",  # an unencoded '/' in the password
        f"postgresql://gm:{SECRET}@127.0.0.1:5432",  # no database name
        f"postgresql://gm:{SECRET}@[::1/chronicle",  # a broken IPv6 host
    ],
)
def test_an_unreachable_or_malformed_postgresql_url_never_echoes_the_password(url):
    result = invoke("--db", url, "log")
    assert_one_clear_line(result, "Error: ")
    as_json = invoke("--db", url, "--json", "log")
    assert as_json.exit_code == 2 and SECRET not in as_json.output
    assert json.loads(as_json.stderr)["error"]["message"]


def test_a_missing_postgresql_database_says_so(postgres_server):
    url = postgres_server.rsplit("/", 1)[0] + "/no_such_database"
    assert_one_clear_line(invoke("--db", url, "log"), "no_such_database")


def test_a_null_byte_in_a_path(tmp_path):
    assert_one_clear_line(invoke("--db", str(tmp_path / "bad\x00name.db"), "log"))
