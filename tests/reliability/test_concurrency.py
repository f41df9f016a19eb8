"""Several game masters append to one character at once: nothing lost, nothing duplicated.

Real processes race for the same aggregate; the losers of each race re-read, re-decide and retry
(`cli/context.py`), so every command succeeds, the character's versions stay gapless and the read
models kept up by all of them equal a rebuild from the log.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .processes import PROGRAM

WORKERS, APPENDS = 8, 25  # eight writers at once, each losing races to the others: 200 appends, every one kept
APPENDER = Path(__file__).with_name("appender.py")


def test_eight_processes_append_rolls_at_once_to_one_character_and_every_one_is_kept(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")

    workers = [
        subprocess.Popen(
            [sys.executable, str(APPENDER), run.db, "Bruno", str(APPENDS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(WORKERS)
    ]
    reports = []
    for worker in workers:
        out, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err
        reports.append(json.loads(out))

    failures = [m for r in reports for m in r["messages"]]
    assert failures == [] and all(code == 0 for r in reports for code in r["codes"])
    rolls = [e for e in run.json("log", "Bruno")["events"] if e["type"] == "DiceRolled"]
    assert len(rolls) == WORKERS * APPENDS
    assert [e["version"] for e in run.json("log", "Bruno")["events"]] == list(range(1, WORKERS * APPENDS + 2))
    assert run.json("character", "show", "Bruno")["version"] == WORKERS * APPENDS + 1
    events = WORKERS * APPENDS + 3  # the campaign, Bruno, the commitment to the ledger's dice, the rolls
    dice = {"fair": WORKERS * APPENDS, "device_seeded": 0, "skipped": []}
    verified = {"ok": True, "events": events, "signed": events, "unsigned": 0, "dice": dice, "problems": []}
    assert run.json("verify") == verified

    def views():
        return run.json("character", "show", "Bruno"), run.json("character", "list"), run.json("log", "Bruno")

    kept_up = views()
    assert run("rebuild").exit_code == 0
    assert views() == kept_up  # the read models written under contention equal a replay of the log


@pytest.fixture
def rival_first(run_sqlite, monkeypatch):
    """Every save in this process is beaten by another process appending to Bruno just before it."""
    from chronicle.ledger.application.session import Session

    run_sqlite("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run_sqlite("character", "add", "Bruno", "--stat", "hp=30")
    save = Session.save

    def beaten(self):
        rival = subprocess.run([*PROGRAM, "--db", run_sqlite.db, "roll", "d20", "--for", "Bruno"], capture_output=True)
        assert rival.returncode == 0, rival.stderr
        return save(self)

    monkeypatch.setattr(Session, "save", beaten)
    return run_sqlite


def test_a_command_that_keeps_losing_gives_up_with_exit_1_and_writes_nothing(rival_first, monkeypatch):
    monkeypatch.setattr("chronicle.ledger.application.retries.RETRIES", 2)
    lost = rival_first("--json", "roll", "d20", "--for", "Bruno", "--reason", "mine")
    assert lost.exit_code == 1 and json.loads(lost.stderr)["error"]["code"] == "conflict"
    reasons = [e["data"]["reason"] for e in rival_first.json("log", "Bruno")["events"][1:]]
    assert reasons == ["", ""]  # the two rivals' rolls, none of ours


def test_a_batch_that_loses_the_race_exits_1_and_writes_nothing(rival_first, tmp_path, monkeypatch):
    monkeypatch.setattr("chronicle.ledger.application.retries.RETRIES", 2)  # a batch retries as a single command does
    lines = tmp_path / "lines.txt"
    lines.write_text("roll d20 --for Bruno --reason mine\n" * 3)
    lost = rival_first("--json", "batch", str(lines))
    assert lost.exit_code == 1 and json.loads(lost.stderr)["error"]["code"] == "conflict"
    assert [e["data"]["reason"] for e in rival_first.json("log", "Bruno")["events"][1:]] == ["", ""]


def test_a_locked_sqlite_database_is_waited_for_not_an_error(run_sqlite):
    import sqlite3
    import time

    run_sqlite("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run_sqlite("character", "add", "Bruno", "--stat", "hp=30")
    blocker = sqlite3.connect(run_sqlite.db, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock for a while
    roll = subprocess.Popen(
        [*PROGRAM, "--db", run_sqlite.db, "roll", "d20", "--for", "Bruno"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(2)
    blocker.execute("COMMIT")
    blocker.close()
    _, err = roll.communicate(timeout=120)
    assert roll.returncode == 0, err
    assert run_sqlite.json("character", "show", "Bruno")["version"] == 2


def test_database_is_locked_past_the_timeout_is_retried(run_sqlite, monkeypatch):
    from eventsourcing.persistence import OperationalError

    from chronicle.ledger.application.session import Session

    run_sqlite("campaign", "new", "Greyhawk", "--system", "adnd2e")
    save = Session.save
    failures: list[int] = []

    def locked_once(self):
        if not failures:
            failures.append(1)
            raise OperationalError("database is locked")
        return save(self)

    monkeypatch.setattr(Session, "save", locked_once)
    assert run_sqlite.json("roll", "d20")["version"] == 2 and failures == [1]
