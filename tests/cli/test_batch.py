"""Batch: each line parsed exactly as `chronicle <line>` would be, and recorded as it would be."""

import itertools
import json
import os
import shlex
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from chronicle.cli.main import chronicle
from chronicle.ledger.application import clock

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


def test_a_batch_builds_no_result_document_its_lines_do_not_print(run_sqlite, monkeypatch):
    """A recorded action's document (`describe`: the system's view of the condition, the dice...) is built
    when printed: alone, each line prints one (and the character's read-model row keeps one, rendered in the
    same transaction); in a batch, none, and the row of each character it changed is rendered once, at
    its end."""
    from chronicle.domain import adnd2e

    viewed: list[tuple[object, ...]] = []

    def view(*args: object) -> dict[str, object]:
        viewed.append(args)
        return {"condition": {}}

    monkeypatch.setattr(adnd2e, "view", view)
    # the attack misses (a natural 1): one event, no injury
    lines = ["injure Bob --damage 3 --mode lethal", "rest Bob --hours 8", "attack Bob Bob --roll 1"]
    assert run_sqlite.json("batch", "-", input=SETUP + "\n".join(lines) + "\n") == {"lines": 5, "events": 5}
    assert len(viewed) == 1  # Bob's row
    for line in lines:
        assert run_sqlite.json(*shlex.split(line))["version"] > 1
    assert len(viewed) == 1 + 2 * len(lines)


def restart_clock(monkeypatch) -> None:
    """Every event's timestamp from a fresh counter: runs compared byte for byte must not differ in time."""
    start, ticks = datetime(2026, 1, 1, tzinfo=UTC), itertools.count()
    monkeypatch.setattr(clock, "utc_now", lambda: start + timedelta(seconds=next(ticks)))


def stored(db: str) -> list[tuple]:
    if not os.path.exists(db):  # failing writes in an empty folder make no database
        return []
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


def test_a_jsonl_batch_runs_command_documents_all_or_nothing(run_sqlite):
    documents = [
        {"command": "campaign new", "name": "Greyhawk", "system": "adnd2e"},
        {"command": "character add", "name": "Bob", "stat": ["hp=20"]},
        {"command": "note", "text": "Bob owes a horse", "for": "Bob"},
        {"command": "roll", "notation": "d20", "for": "Bob", "dice": [12]},
    ]
    script = "\n".join(json.dumps(d) for d in documents) + "\n\n"
    assert run_sqlite.json("batch", "--jsonl", "-", input=script) == {"lines": 4, "events": 4}
    events = run_sqlite.json("log", "Bob")["events"]
    assert [e["type"] for e in events] == ["CharacterRegistered", "NoteTaken", "DiceRolled"]
    assert events[-1]["data"]["faces"] == [12]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"command": "roll", "notation": "d20", "fr": "Bob"}', "line 2: roll: unknown key 'fr'"),
        ('{"command": "roll"}', "line 2: roll: 'notation' is required"),
        ('{"command": "rol", "notation": "d20"}', "line 2: no command named 'rol': did you mean 'roll'?"),
        ('{"notation": "d20"}', 'line 2: a command document names its command: {"command": NAME, ...}'),
        ("[1, 2]", "line 2: a command document is a JSON object"),
        ('{"command": "roll", "notation": "d20"', "line 2: not a JSON document"),
        ('{"command": "roll", "notation": "d20", "roll": "12"}', "line 2: roll: 'roll': must be a whole number"),
    ],
)
def test_a_document_that_does_not_fit_its_schema_is_bad_input_naming_the_key(run_sqlite, line, message):
    run_sqlite("campaign", "new", "Greyhawk", "--system", "adnd2e")
    before = stored(run_sqlite.db)
    script = '{"command": "roll", "notation": "d6"}\n' + line + "\n"
    result = run_sqlite("--json", "batch", "--jsonl", "-", input=script)
    assert result.exit_code == 2
    assert json.loads(result.stderr)["error"]["message"].startswith(message)
    assert stored(run_sqlite.db) == before


def test_a_line_with_no_end_in_sight_is_refused_before_it_fills_memory(run_sqlite, tmp_path):
    from chronicle.cli import batch

    endless = tmp_path / "endless"
    endless.write_text("x" * (batch.LONGEST_LINE + 5))
    result = run_sqlite("--json", "batch", str(endless))
    assert result.exit_code == 2
    assert "line 1 is longer than" in json.loads(result.stderr)["error"]["message"]
