"""Fair dice against whoever holds the database (docs/fair-dice.md), on SQLite and PostgreSQL: an export's fair
rolls derived again by an implementation that shares no code with chronicle (independent_dice.py) give the
recorded faces; a revealed seed changed, a fair roll's faces changed, a roll removed (its seed skipped) and
a seed revealed twice, each with the hash chains recomputed, are each named by `verify`, exit 1."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from chronicle.cli.main import chronicle

from .edges import sql
from .forge import rechain
from .independent_dice import faces

SCRIPT = Path(__file__).with_name("independent_dice.py")


class Table:
    def __init__(self, db: str):
        self.db, self.runner = db, CliRunner()

    def __call__(self, *args: str, input: str | None = None):
        """`chronicle` with no --seed: the ledger rolls its fair dice."""
        return self.runner.invoke(
            chronicle, ["--db", self.db, "--by", "gm", *args], input=input, catch_exceptions=False
        )

    def json(self, *args: str, input: str | None = None):
        done = self("--json", *args, input=input)
        assert done.exit_code == 0, done.stderr + done.stdout
        return json.loads(done.stdout)

    def rolls(self) -> list[dict]:
        return [e for e in self.json("log")["events"] if "fair" in (e["data"].get("dice") or {})]

    def verify(self) -> tuple[dict, list[str]]:
        done = self("--json", "verify")
        report = json.loads(done.stdout)
        assert done.exit_code == (0 if report["ok"] else 1)
        return report, [f"#{p['position']}: {p['problem']}" for p in report["problems"]]


@pytest.fixture
def table(db, monkeypatch) -> Table:
    monkeypatch.setenv("CHRONICLE_DICE_CHAIN", "4")
    run = Table(db)
    run.json("campaign", "new", "Greyhawk", "--system", "potestas")
    run.json("character", "add", "Bruno", "--stat", "fort=3")
    run.json("character", "add", "Aric", "--stat", "fort=5")
    run.json("roll", "d20", "--for", "Bruno")  # seed 1
    run.json("roll", "d20", "--for", "Bruno")  # seed 2
    run.json("roll", "d20", "--for", "Aric")  # seed 3: Aric's last event
    run.json("roll", "d20", "--for", "Bruno")  # seed 4
    return run


def test_an_exports_fair_rolls_derived_again_independently_give_the_recorded_faces(table, tmp_path):
    documents = [
        {"command": "roll", "notation": "4d6kh3+2", "device_seed": "7a" * 32},
        {"command": "injure", "name": "Aric", "damage": 30, "device_seed": "00" * 32},
        {"command": "roll", "notation": "d100+d10", "for": "Bruno", "device_seed": hashlib.sha256(b"p").hexdigest()},
        {"command": "roll", "notation": "2d8", "for": "Bruno", "dice": [3, 5]},  # the table's own: no seed
    ]
    batch = "\n".join(json.dumps(d) for d in documents)
    assert table.json("batch", "--jsonl", "-", input=batch)["lines"] == 4  # a second chain, committed on the way
    exported = tmp_path / "greyhawk.jsonl"
    assert table("export", "--output", str(exported)).exit_code == 0

    done = subprocess.run([sys.executable, str(SCRIPT), str(exported)], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    rolls = table.rolls()
    assert found["fair"] == len(rolls) == 7 and found["wrong"] == []
    recorded = [
        [face for roll in e["data"]["dice"]["rolls"] if roll["source"] == "ledger" for face in roll["faces"]]
        for e in rolls
    ]
    assert list(found["faces"].values()) == recorded
    assert [e["data"]["dice"]["fair"]["index"] for e in rolls] == [1, 2, 3, 4, 1, 2, 3]
    assert table.verify()[0]["ok"]


def test_a_revealed_seed_changed_is_named(table, tmp_path):
    second = table.rolls()[1]
    other = hashlib.sha256(b"a seed the ledger never committed to").hexdigest()

    def forge(state):  # the seed, and faces that seed gives: only the chain can tell
        state["dice"]["fair"]["seed"] = other
        state["faces"] = state["dice"]["rolls"][0]["faces"] = faces(other, None, [20])
        state["total"] = state["faces"][0]

    rechain(table.db, second["position"], forge)
    report, problems = table.verify()
    assert not report["ok"]
    assert f"#{second['position']}: fair dice: seed 2 does not hash to seed 1 (#" in "\n".join(problems)
    dice = [p for p in problems if "fair dice" in p]  # (the told sentences and the rows were kept as they were)
    assert len(dice) == 1  # seed 3 still hashes back to seed 1: only the forged one is named
    exported = tmp_path / "forged.jsonl"
    assert table("export", "--output", str(exported)).exit_code == 0
    done = subprocess.run([sys.executable, str(SCRIPT), str(exported)], capture_output=True, text=True, check=True)
    assert len(json.loads(done.stdout)["wrong"]) >= 1


def test_a_fair_rolls_faces_changed_are_named(table):
    first = table.rolls()[0]
    face = first["data"]["faces"][0] % 20 + 1

    def forge(state):
        state["faces"] = state["dice"]["rolls"][0]["faces"] = [face]
        state["total"] = face

    rechain(table.db, first["position"], forge)
    report, problems = table.verify()
    named = f"#{first['position']}: fair dice: the faces recorded are not those seed 1 gives (changed since?)"
    assert [p for p in problems if "fair dice" in p] == [named] and not report["ok"]


def test_a_roll_removed_leaves_its_seed_skipped_and_named(table):
    rolls = table.rolls()
    arics = rolls[2]
    assert arics["character"] == "Aric" and arics["data"]["dice"]["fair"]["index"] == 3
    events, at = (
        ("chronicle_events", "notification_id") if table.db.startswith("postgresql") else ("stored_events", "rowid")
    )
    sql(table.db, f"DELETE FROM {events} WHERE {at} = ?", (arics["position"],))  # noqa: S608 - the library's table
    report, problems = table.verify()
    assert not report["ok"] and report["dice"]["skipped"] == [3]
    named = f"#{rolls[3]['position']}: fair dice: seed 3 of the chain committed at #"
    assert any(p.startswith(named) and "never revealed" in p and "reveals seed 4" in p for p in problems), problems


def test_a_seed_revealed_twice_is_named(table):
    rolls = table.rolls()
    again, last = rolls[1]["data"]["dice"]["fair"], rolls[3]

    def forge(state):  # the last roll passed off as made with seed 2, its faces as seed 2 gives them
        state["dice"]["fair"] = dict(again)
        state["faces"] = state["dice"]["rolls"][0]["faces"] = faces(again["seed"], None, [20])
        state["total"] = state["faces"][0]

    rechain(table.db, last["position"], forge)
    report, problems = table.verify()
    assert not report["ok"]
    expected = f"#{last['position']}: fair dice: seed 2 of the chain committed at #"
    assert any(p.startswith(expected) and f"revealed twice (first at #{rolls[1]['position']})" in p for p in problems)
