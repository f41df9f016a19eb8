"""Players type anything: random command lines and option values never produce a traceback, a
failure always says why (exit 1 or 2), and a failed command leaves the database byte-identical."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronicle.cli.main import chronicle

NAMES = st.one_of(
    st.sampled_from(["Bruno", "bruno", "Nobody", "", " ", "Bruno\x00", "Ünïcødé 龍", "-x", "--json"]),
    st.text(max_size=12),
)
NUMBERS = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["", "1e9", "NaN", "½", "٣", "0x10", "-0"]),
    st.text(max_size=6),
)
NOTATION = st.one_of(
    st.sampled_from(
        [
            "d20",
            "4d6kh3",
            "d%",
            "1001d6",
            "1d1001",
            "0d6",
            "d0",
            "2d6+1d4-1",
            "__import__('os')",
            "1;DROP TABLE stored_events",
            "9" * 400,
            "d" * 300,
            "4d6kh99",
            "1d6" + "+1d6" * 150,
        ]
    ),
    st.text(alphabet="0123456789dDkhl%+- x", max_size=20),
    st.text(max_size=20),
)
REFS = st.one_of(
    st.sampled_from(
        [
            "#0",
            "#-1",
            "#1",
            "#99999999999999999999",
            "#",
            "2026-13-45",
            "not-a-ref",
            "00000000-0000-0000-0000-000000000000",
            "1970-01-01T00:00:00",
        ]
    ),
    st.text(max_size=20),
)
URLS = st.one_of(
    st.sampled_from(
        [
            "postgresql://",
            "postgresql:///",
            "postgres://u:pw@127.0.0.1:1/x",
            "postgresql://u:pw@[::1/x",
            "postgresql://u:pw@127.0.0.1:70000/x",
            "postgresql://%zz@127.0.0.1:1/x",
        ]
    ),
    st.text(max_size=15).map(lambda text: "postgresql://" + text),
)
TEXT = st.text(max_size=30)

COMMANDS = st.one_of(
    st.tuples(st.just("roll"), NOTATION),
    st.tuples(st.just("roll"), NOTATION, st.just("--for"), NAMES),
    st.tuples(st.just("roll"), NOTATION, st.just("--dice"), NUMBERS),
    st.tuples(st.just("character"), st.just("add"), NAMES, st.just("--stat"), TEXT),
    st.tuples(st.just("character"), st.just("show"), NAMES, st.just("--as-of"), REFS),
    st.tuples(st.just("log"), NAMES, st.just("--since"), REFS),
    st.tuples(st.just("amend"), REFS, st.just("--reason"), TEXT, st.just("--void")),
    st.tuples(st.just("injure"), NAMES, st.just("--damage"), NUMBERS, st.just("--mode"), TEXT),
    st.tuples(st.just("rest"), NAMES, st.just("--hours"), NUMBERS),
    st.tuples(st.just("mug"), NAMES, NAMES, st.just("--save-number"), NUMBERS, st.just("--save-roll"), NUMBERS),
    st.tuples(st.just("campaign"), st.just("rule"), TEXT, st.just("--reason"), TEXT),
    st.tuples(st.just("campaign"), st.just("new"), NAMES, st.just("--system"), TEXT),
    st.tuples(st.just("rules"), st.sampled_from(["fortitude-dc", "falling", "monster-strength"]), NUMBERS),
    st.tuples(st.just("replay"), NAMES, st.just("--ruling"), TEXT),
    st.tuples(st.just("--campaign"), NAMES, st.just("character"), st.just("list")),
    st.lists(TEXT, max_size=4).map(tuple),
)
TARGETS = st.tuples(st.just("--db"), URLS)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A small ledger whose read models have caught up, so reading it changes no byte."""
    db = tmp_path_factory.mktemp("fuzz") / "template.db"
    runner = CliRunner()
    for args in (
        ["campaign", "new", "Greyhawk", "--system", "adnd2e"],
        ["character", "add", "Bruno", "--stat", "hp=30", "--stat", "level=3"],
        ["character", "add", "Mugger", "--stat", "hp=10", "--stat", "level=1"],
        ["roll", "4d6kh3", "--for", "Bruno"],
        ["log"],
        ["character", "list"],
        ["character", "show", "Bruno"],
        ["verify"],
    ):
        assert runner.invoke(chronicle, ["--db", str(db), "--seed", "1", *args]).exit_code == 0
    return db


def snapshot(db: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(db.parent.glob(db.name + "*"))}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    args=st.one_of(COMMANDS, COMMANDS, COMMANDS, st.tuples(TARGETS, COMMANDS).map(lambda t: t[0] + t[1])),
    as_json=st.booleans(),
)
def test_random_command_lines_fail_cleanly_and_write_nothing(template, tmp_path, monkeypatch, args, as_json):
    monkeypatch.chdir(tmp_path)  # a random relative --db lands here, never in the repository
    db = tmp_path / "ledger.db"
    for leftover in tmp_path.glob("ledger.db*"):
        leftover.unlink()
    shutil.copyfile(template, db)
    before = snapshot(db)

    result = CliRunner().invoke(chronicle, ["--db", str(db), "--by", "fuzz", *(["--json"] if as_json else []), *args])

    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2), (args, result.output)
    if result.exit_code:
        assert result.stderr.strip(), (args, "a failure must say why")
        assert snapshot(db) == before, (args, result.stderr)
