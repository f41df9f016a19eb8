"""Issue 25's acceptance: every command's every option and argument, given what an adversary types (NUL,
lone surrogates, escape sequences, numbers beyond 64 bits, option-like values), ends in success or in
exit 1 or 2 with one line of JSON on stderr, never the `internal` code, and a failure writes nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronicle.cli.main import chronicle

SKIPPED = {"serve", "demo", "batch", "import", "rebuild", "key"}  # they serve forever, read files or write wholesale

NASTY = st.one_of(
    st.sampled_from(
        [
            "Bruno",
            "bruno ",
            "Nobody",
            "",
            " ",
            "Bru\x00no",
            "\x1b[2J",
            "caf\udce9",
            "\ud800",
            "-1",
            "0",
            "1",
            "#1",
            "#0",
            "#-1",
            str(2**63),
            str(-(2**63) - 1),
            "9" * 40,
            "#" + "9" * 30,
            "--json",
            "--help-me",
            "-x",
            "--",
            "=",
            "hp=" + "9" * 25,
            "d20",
            "2d6",
            "1d6" + "+1d6" * 40,
            "lethal",
            "sap",
            "death_at=-10",
            "2026-12-04T14:00:00",
            "1e9",
            "NaN",
            "½",
            "٣",
        ]
    ),
    st.integers(-(2**70), 2**70).map(str),
    st.text(max_size=12),
)


def _commands() -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    ctx = click.Context(chronicle)
    for name in chronicle.list_commands(ctx):
        if name in SKIPPED:
            continue
        command = chronicle.get_command(ctx, name)
        if isinstance(command, click.Group):
            found += [((name, sub), command.get_command(ctx, sub)) for sub in command.list_commands(ctx)]
        else:
            found.append(((name,), command))
    return found


COMMANDS = _commands()


@st.composite
def command_lines(draw) -> list[str]:
    path, command = draw(st.sampled_from(COMMANDS))
    args = list(path)
    for param in command.params:
        if isinstance(param, click.Argument):
            args += draw(st.lists(NASTY, min_size=1, max_size=2 if param.nargs == -1 else 1))
        elif param.name not in ("json_", "help") and draw(st.booleans()):
            option = param.opts[0]
            args += [option] if param.is_flag else [option, draw(NASTY)]
    return args


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("fuzz-cli") / "template.db"
    runner = CliRunner()
    for args in (
        ["campaign", "new", "Greyhawk", "--system", "adnd2e"],
        ["character", "add", "Bruno", "--stat", "hp=30", "--stat", "level=3"],
        ["roll", "d20", "--for", "Bruno"],
        ["log"],
        ["character", "show", "Bruno"],
        ["verify"],
    ):
        assert runner.invoke(chronicle, ["--db", str(db), "--seed", "1", *args]).exit_code == 0
    return db


def snapshot(db: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(db.parent.glob(db.name + "*"))}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=command_lines())
def test_every_command_fails_in_one_clear_line_and_writes_nothing(template, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)  # a relative file an option names lands here
    monkeypatch.delenv("CHRONICLE_CIPHER_KEY", raising=False)
    db = tmp_path / "ledger.db"
    for leftover in tmp_path.glob("ledger.db*"):
        leftover.unlink()
    shutil.copyfile(template, db)
    before = snapshot(db)

    result = CliRunner().invoke(chronicle, ["--db", str(db), "--json", "--by", "fuzz", *args])

    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code in (0, 1, 2), (args, result.output)
    if result.exit_code:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, (args, result.stderr)
        assert json.loads(lines[0])["error"]["code"] != "internal", (args, lines[0])
        assert snapshot(db) == before, (args, lines[0])
