"""Batch: each line parsed exactly as `chronicle <line>` would be, and recorded as it would be."""

import contextlib
import importlib.metadata
import io
import itertools
import json
import shlex
import sqlite3
from datetime import UTC, datetime, timedelta

import click
import pytest
from click.testing import CliRunner

from chronicle.cli.batch import _Reusing
from chronicle.cli.main import chronicle
from chronicle.ledger import clock

SETUP = "campaign new Greyhawk --system adnd2e\ncharacter add Bob --stat hp=20\n"


@pytest.mark.parametrize(
    "line",
    [
        "roll d20 --for Bob --bogus",
        "roll d20 --fo Bob",
        "roll d20 --reason",
        "roll",
        "roll d20 --dice",
        "character add Ann --stat",
        "character add Ann --bogus",
        "character add",
        "character ad Ann",
    ],
)
def test_a_line_click_refuses_fails_as_it_would_alone_naming_its_line_after_good_lines_of_the_same_command(
    run_sqlite, line
):
    alone = run_sqlite("--json", *shlex.split(line))
    assert alone.exit_code == 2
    script = SETUP + "roll d20 --for Bob --reason warm\ncharacter add Cy --stat hp=5\n" + line + "\n"
    result = run_sqlite("--json", "batch", "-", input=script)
    assert result.exit_code == 2
    message = json.loads(alone.stderr)["error"]["message"]
    assert json.loads(result.stderr)["error"]["message"] == f"line 5: {message}"
    assert stored(run_sqlite.db) == []


@pytest.mark.parametrize(
    "line", ["injure Bob --damage x", "injure Bob --bogus", "injure Bob --damage", "rest Bob --hours"]
)
def test_a_bad_line_of_a_system_command_fails_as_it_would_alone_after_good_ones(run_sqlite, line):
    """`injure`, `rest` and `attack` pick their system's command, also reused from line to line."""
    run_sqlite("batch", "-", input=SETUP)  # the campaign's system picks the command
    before = stored(run_sqlite.db)
    alone = run_sqlite("--json", *shlex.split(line))
    assert alone.exit_code == 2
    script = "injure Bob --damage 1 --mode lethal\nrest Bob --hours 1\n" + line + "\n"
    result = run_sqlite("--json", "batch", "-", input=script)
    assert result.exit_code == 2
    message = json.loads(alone.stderr)["error"]["message"]
    assert json.loads(result.stderr)["error"]["message"] == f"line 3: {message}"
    assert stored(run_sqlite.db) == before


def test_a_dispatched_command_the_campaigns_system_lacks_fails_as_it_would_alone(run_sqlite):
    """A batch picks the system's command itself (not through `dispatch`'s own command): same refusal."""
    run_sqlite("batch", "-", input="campaign new Camelot --system pendragon-pass\ncharacter add Gawain\n")
    alone = run_sqlite("--json", "attack", "Gawain", "Gawain")
    assert alone.exit_code == 2
    result = run_sqlite("--json", "batch", "-", input="rest Gawain --hours 1\nattack Gawain Gawain\n")
    assert result.exit_code == 2
    assert json.loads(result.stderr)["error"]["message"] == f"line 2: {json.loads(alone.stderr)['error']['message']}"


def test_help_on_a_line_is_not_a_failure(run_sqlite):
    script = SETUP + "roll --help\nroll d6 --for Bob\ninjure -h\nrest --help\n"
    assert run_sqlite.json("batch", "-", input=script) == {"lines": 6, "events": 3}


def test_a_reused_parser_reports_the_context_of_the_line_being_parsed():
    root = click.Context(chronicle, info_name="chronicle")
    commands = _Reusing(chronicle)
    roll = commands.command(root, "roll")
    assert roll is commands.command(root, "roll")  # one copy, one parser, for every line
    first = roll.make_context("roll", ["d20", "--for", "Bob"], parent=root)
    with pytest.raises(click.NoSuchOption) as refused:
        roll.make_context("roll", ["d20", "--bogus"], parent=root)
    assert refused.value.ctx is not first and refused.value.ctx.command is roll
    assert refused.value.ctx.command_path == "chronicle roll"
    group = commands.command(root, "character")
    sub = group.make_context("character", ["add", "Ann"], parent=root)
    add = group.get_command(sub, "add")
    assert add is group.get_command(sub, "add") and add.get_params(sub) is add.get_params(sub)
    assert (
        type(add).__name__ == "Command"
        and add.callback is chronicle.get_command(root, "character").commands["add"].callback
    )


def test_a_batch_builds_no_result_document_its_lines_do_not_print(run_sqlite, monkeypatch):
    """A recorded action's document (`describe`: the system's view of the condition, the dice...) is built
    when printed: alone, each line prints one (and the character's read-model row keeps one, rendered in the
    same transaction); in a batch, none, and the row of each character it changed is rendered once, at
    its end."""
    from chronicle.domain import adnd2e

    viewed = []
    monkeypatch.setattr(adnd2e, "view", lambda *args: viewed.append(args) or {"condition": {}})
    lines = ["injure Bob --damage 3 --mode lethal", "rest Bob --hours 8", "attack Bob Bob --roll 12"]
    assert run_sqlite.json("batch", "-", input=SETUP + "\n".join(lines) + "\n") == {"lines": 5, "events": 5}
    assert len(viewed) == 1  # Bob's row
    for line in lines:
        assert run_sqlite.json(*shlex.split(line))["version"] > 1
    assert len(viewed) == 1 + 2 * len(lines)


def every_command() -> list[tuple[str, click.Command]]:
    """Every command a batch line can name, the systems' real commands and group subcommands included."""
    import importlib

    from chronicle.cli.main import COMMANDS
    from chronicle.domain.systems import PACKAGES

    found, root = [], click.Context(chronicle, info_name="chronicle")
    for name in COMMANDS:
        found.append((name, chronicle.get_command(root, name)))
    for package in PACKAGES.values():
        module = importlib.import_module(f"chronicle.cli.systems.{package}")
        found += [(name, getattr(module, name)) for name in ("injure", "rest", "attack") if hasattr(module, name)]
    for name, command in list(found):
        if isinstance(command, click.Group):
            found += [(f"{name} {sub}", command.get_command(root, sub)) for sub in command.list_commands(root)]
    return found


LINES = [
    "",
    "Bob",
    "Bob Ann",
    "Bob --json",
    "--json",
    "Bob --campaign Other",
    "Bob --campaign",
    "--bogus",
    "Bob --",
    "Bob --damage 3 --mode lethal",
    "Bob --mode lethal --damage 3 --json",
    "Bob --damage 3 --damage 4 --mode sap",
    "Bob --damage x --mode lethal",
    "Bob --damage 3 --mode nonsense",
    "Bob --hours 8",
    "Bob --minutes 5 --interrupted",
    "Bob --hours 8 --minutes 5 extra",
    "Bob --stat hp=3 --stat str=9 --object",
    "d20 --for Bob --reason bench",
    "d20 --reason --for",
    "3d6 --dice 1,2,3 --for",
    "Bob Ann --maneuver sap --weapon club --roll 17",
    "Bob Ann --maneuver nope",
    "Bob --save-roll 9 --type slashing --nonlethal",
    "Bob 1 --points 6 --any-age",
    "Bob --hours=8",
    "Bob -h",
    "Bob --help --bogus",
]


@pytest.mark.parametrize("name, command", every_command(), ids=lambda value: value if isinstance(value, str) else "")
def test_a_reused_command_parses_every_line_as_click_does(name, command):
    """The reused copy's shortcuts (processing order sorted once, absent options' defaults consumed
    once) give the values, their sources, the leftover arguments, the callbacks' effects and the
    errors of Click's own parsing, line after line."""
    from chronicle.cli.context import Env

    def parse(command: click.Command, args: list[str]) -> tuple:
        env = Env(db="unused.db", json=False, by="gm", campaign=None)
        root = click.Context(chronicle, info_name="chronicle", obj=env)
        try:
            with command.make_context(name, list(args), parent=root, obj=env) as ctx:
                params = {k: type(v) if isinstance(v, io.IOBase) else v for k, v in ctx.params.items()}  # File()s
                return (params, ctx._parameter_source, ctx._param_default_explicit, ctx.args, env)
        except click.exceptions.Exit as done:
            return ("exit", done.exit_code, env)
        except click.ClickException as problem:
            where, param = getattr(problem, "ctx", None), getattr(problem, "param", None)
            return (type(problem), problem.format_message(), where and where.command_path, param and param.name, env)

    commands = _Reusing(chronicle)
    reused = commands.reused(command)
    for line in LINES * 2:  # a second time: from what the first one cached
        with contextlib.redirect_stdout(io.TextIOWrapper(io.BytesIO())) as printed:  # help, and File("w") defaults
            expected = parse(command, line.split())
        with contextlib.redirect_stdout(io.TextIOWrapper(io.BytesIO())) as again:
            assert parse(reused, line.split()) == expected, line
        assert again.buffer.getvalue() == printed.buffer.getvalue()


def restart_clock(monkeypatch) -> None:
    """Every event's timestamp from a fresh counter: runs compared byte for byte must not differ in time."""
    start, ticks = datetime(2026, 1, 1, tzinfo=UTC), itertools.count()
    monkeypatch.setattr(clock, "utc_now", lambda: start + timedelta(seconds=next(ticks)))


def stored(db: str) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT originator_id, originator_version, topic, state FROM stored_events ORDER BY rowid"
        ).fetchall()


def test_a_batch_stores_the_same_bytes_as_its_lines_run_one_by_one(tmp_path, monkeypatch):
    """`--seed S` seeds a run's first dice with S+1, the next with S+2: one by one, each line that rolls
    gets the seed the batch reaches there."""
    lines = [
        ("campaign new Greyhawk --system adnd2e", 7),
        ("character add Bob --stat hp=20", 7),
        ("character add Ann --stat hp=9", 7),
        ("roll d20 --for Bob", 7),
        ("roll 4d6kh3 --for Ann --reason 'new statistic'", 8),
        ("injure Bob --damage 3 --mode lethal", 9),
        ("roll d6", 10),
        ("roll 2d6 --for Ann --dice 3,5", 11),
        ("injure Ann --damage 12 --mode lethal", 12),
    ]
    runner = CliRunner()
    alone, batch = str(tmp_path / "alone.db"), str(tmp_path / "batch.db")
    restart_clock(monkeypatch)
    for line, seed in lines:
        result = runner.invoke(chronicle, ["--db", alone, "--by", "gm", "--seed", str(seed), *shlex.split(line)])
        assert result.exit_code == 0, result.output
    restart_clock(monkeypatch)
    script = "\n".join(line for line, _ in lines) + "\n"
    result = runner.invoke(chronicle, ["--db", batch, "--by", "gm", "--seed", "7", "batch", "-"], input=script)
    assert result.exit_code == 0, result.output
    assert len(stored(alone)) == len(lines)
    assert stored(batch) == stored(alone)


def test_a_line_splits_into_the_words_shlex_would_give():
    import sys

    from chronicle.cli.batch import _split

    odd = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace() and chr(c) not in " \t\r\n"]
    lines = [
        "roll d20 --for C0007 --reason bench",
        "  roll\td20  ",
        "roll d20 --reason 'a b'",
        'x "y z" \\w',
        "roll d6 # a comment",
        *(f"roll{c}d20 --for{c}x" for c in odd),
    ]
    for line in lines:
        assert _split(line + "\n", 1) == shlex.split(line.strip(), comments=True), repr(line)


def test_the_installed_click_is_one_the_batch_parses_lines_for():
    """A batch parses its lines with its own copy of Click's `parse_args` (a third of the time) only for
    the Clicks it mirrors; another one parses them correctly but slowly, so a new Click is compared with
    `_parse_args` and added to `MIRRORED_CLICKS` (the test above then holds the copy to it)."""
    from chronicle.cli import batch

    version = importlib.metadata.version("click")
    assert version.startswith(batch.MIRRORED_CLICKS), f"Click {version}: compare cli/batch.py's _parse_args with it"
    assert batch._MIRRORED
