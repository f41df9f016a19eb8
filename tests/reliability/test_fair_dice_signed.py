"""A signed command's fair dice are run again from its signed document, on SQLite and PostgreSQL: the commitment
to a new chain a command records is the command's own (signed with it, made again where its first fair die
needed a seed); a fair roll's device seed is the document's, so one changed in the event (faces and total made
again, every hash chain recomputed) is named, as is a commitment moved into another command or given another
head; `import` checks the fair dice's chains as `verify` does."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from conftest import Run

from chronicle.cli.main import chronicle

from .edges import refused, stored
from .forge import rechain, reseal, row
from .independent_dice import faces

COMMITTED = ":DiceCommitted"


class Table:
    """`chronicle` without --seed: the ledger rolls its fair dice."""

    def __init__(self, db: str):
        self.db, self.runner = db, CliRunner()

    def __call__(self, *args: str, input: str | None = None):
        return self.runner.invoke(chronicle, ["--db", self.db, "--by", "gm", *args], input=input)

    def json(self, *args: str, input: str | None = None):
        done = self("--json", *args, input=input)
        assert done.exit_code == 0, done.stderr + done.stdout
        return json.loads(done.stdout)

    def events(self) -> list[dict]:
        return self.json("log")["events"]

    def problems(self, *options: str) -> list[str]:
        done = self("--json", "verify", *options)
        report = json.loads(done.stdout)
        assert done.exit_code == (0 if report["ok"] else 1), done.output
        return [f"#{p['position']}: {p['problem']}" for p in report["problems"]]


DEVICE = hashlib.sha256(b"a phone").hexdigest()


@pytest.fixture
def table(db, monkeypatch) -> Table:
    """Greyhawk with chains of two seeds: the third and fifth fair rolls commit to a new chain first."""
    monkeypatch.setenv("CHRONICLE_DICE_CHAIN", "2")
    run = Table(db)
    run.json("campaign", "new", "Greyhawk", "--system", "potestas")
    run.json("character", "add", "Bruno", "--stat", "fort=3")
    documents = [
        {"command": "roll", "notation": "d20", "device_seed": DEVICE},
        {"command": "roll", "notation": "2d6", "for": "Bruno", "device_seed": DEVICE},
        {"command": "roll", "notation": "d100", "device_seed": DEVICE},
        {"command": "injure", "name": "Bruno", "damage": 30},
        {"command": "roll", "notation": "d8", "for": "Bruno", "device_seed": DEVICE},
    ]
    run.json("batch", "--jsonl", "-", input="\n".join(json.dumps(d) for d in documents))
    return run


def test_a_commitment_is_signed_with_the_command_that_needed_it_and_derives_again(table):
    events = table.events()
    commitments = [e for e in events if "head" in e["data"] and "length" in e["data"]]
    assert len(commitments) == 3  # before the first, third and fifth fair rolls
    for commitment in commitments:
        after = next(e for e in events if e["position"] > commitment["position"])
        _, _, _, committed = row(table.db, commitment["position"])
        _, _, _, rolled = row(table.db, after["position"])
        assert committed["signed"] == rolled["signed"]  # one command: the roll that needed the chain
        assert rolled["dice"]["fair"]["index"] == 1
    assert table.problems("--require-signatures") == []


def test_a_fair_rolls_device_seed_changed_under_its_signature_is_named(table):
    roll = next(e for e in table.events() if (e["data"].get("dice") or {}).get("fair", {}).get("device_seed"))
    fair = roll["data"]["dice"]["fair"]
    other = hashlib.sha256(b"a device the player never held").hexdigest()

    def forge(state):  # the faces that seed and that device seed give: the faces check alone cannot tell
        state["dice"]["fair"]["device_seed"] = other
        sides = [r["sides"] for r in state["dice"]["rolls"] for _ in r["faces"]]
        made = faces(fair["seed"], other, sides)
        state["faces"] = state["dice"]["rolls"][0]["faces"] = made
        state["total"] = sum(made)

    rechain(table.db, roll["position"], forge)
    for options in ((), ("--require-signatures",)):
        found = [p for p in table.problems(*options) if p.startswith(f"#{roll['position']}: DiceRolled is not")]
        assert len(found) == 1 and "is not what its signed document (`roll`) derives" in found[0], found


def test_a_commitment_moved_into_the_command_before_it_is_named(table):
    events = table.events()
    second = [e for e in events if "head" in e["data"] and "length" in e["data"]][1]
    before = max(e["position"] for e in events if e["position"] < second["position"])
    _, _, _, earlier = row(table.db, before)

    def forge(state):  # the commitment passed off as the earlier command's: its signature copied on
        state["signed"] = earlier["signed"]

    rechain(table.db, second["position"], forge)
    found = [p for p in table.problems() if p.startswith(f"#{second['position']}: ")]
    assert found and "derives 1 event(s), not this one too" in found[0], found


def test_a_commitments_head_changed_under_its_signature_is_named(table):
    events = table.events()
    commitment = [e for e in events if "head" in e["data"] and "length" in e["data"]][1]
    after = next(e for e in events if e["position"] > commitment["position"])

    def forge(state):
        state["head"] = hashlib.sha256(b"a chain the ledger never made").hexdigest()

    rechain(table.db, commitment["position"], forge)
    found = [p for p in table.problems("--require-signatures") if "fair dice" in p]
    head = f"the head committed at #{commitment['position']}: not a seed the ledger committed to"
    assert found[0] == f"#{after['position']}: fair dice: seed 1 does not hash to {head}", found
    assert all(head in p for p in found), found  # that chain's seeds, each: no other chain's


def test_import_names_a_fair_seed_its_chain_does_not_hold(table, tmp_path):
    lines = [orjson.loads(line) for line in table("export").stdout.splitlines()]
    rolls = [line for line in lines if "fair" in (line.get("state", {}).get("dice") or {})]
    second = rolls[1]
    other = hashlib.sha256(b"a seed the ledger never committed to").hexdigest()
    state = second["state"]
    state["dice"]["fair"]["seed"] = other
    made = faces(other, state["dice"]["fair"]["device_seed"], [6, 6])
    state["faces"] = state["dice"]["rolls"][0]["faces"] = made
    state["total"] = sum(made)
    reseal(lines, second)
    path = Path(tmp_path) / "forged.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    copy = Run(str(tmp_path / "copy.db"))
    number = lines.index(second) + 1
    refused(copy("import", str(path)), 1, f"line {number}: fair dice: seed 2 does not hash to seed 1 (line ")
    assert stored(copy.db) == 0
