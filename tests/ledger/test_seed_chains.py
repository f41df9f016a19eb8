"""The ledger's fair dice, stored and taken (docs/fair-dice.md): a commitment before the first roll of each
chain, each roll revealing the next seed, renewed when a chain is used up, and nothing taken by a command
that loses a race or is refused; the unrevealed seeds stay in the ledger's storage, encrypted with its key."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import IntegrityError
from reliability.edges import sql

from chronicle.cli.main import chronicle
from chronicle.domain.errors import Refusal
from chronicle.ledger.application.session import Session
from chronicle.ledger.store.seed_chains import SEEDS


class Unseeded:
    """`chronicle --db DB ...` in-process, as a table runs it: no --seed, so the ledger rolls its fair dice."""

    def __init__(self, db: str):
        self.db, self.runner = db, CliRunner()

    def __call__(self, *args: str, by: str = "gm"):
        return self.runner.invoke(chronicle, ["--db", self.db, "--by", by, *args], catch_exceptions=False)

    def json(self, *args: str):
        result = self("--json", *args)
        assert result.exit_code == 0, result.stderr + result.stdout
        return json.loads(result.stdout)

    def events(self) -> list[dict]:
        return self.json("log")["events"]

    def fair(self) -> list[dict]:
        return [e["data"]["dice"]["fair"] for e in self.events() if "fair" in (e["data"].get("dice") or {})]


@pytest.fixture
def table(db) -> Unseeded:
    run = Unseeded(db)
    run.json("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run.json("character", "add", "Bruno", "--stat", "hp=30")
    return run


def test_the_first_fair_roll_is_committed_to_before_it_and_reveals_seed_one(table):
    rolled = table.json("roll", "3d6", "--for", "Bruno")
    events = table.events()
    assert [e["type"] for e in events] == ["CampaignStarted", "CharacterRegistered", "DiceCommitted", "DiceRolled"]
    committed, roll = events[2]["data"], events[3]["data"]
    fair = roll["dice"]["fair"]
    assert fair["index"] == 1 and fair["device_seed"] is None and committed["length"] == 1024
    assert hashlib.sha256(bytes.fromhex(fair["seed"])).hexdigest() == committed["head"]
    assert rolled["fair_dice"] == [{"index": 1, "head": committed["head"]}]  # the reply names the seed it used
    assert [r["source"] for r in roll["dice"]["rolls"]] == ["ledger"]


def test_the_tables_own_dice_take_no_seed_and_commit_to_nothing(table):
    table.json("roll", "d20", "--roll", "14", "--for", "Bruno")
    assert "DiceCommitted" not in [e["type"] for e in table.events()] and table.fair() == []


def test_each_roll_reveals_the_next_seed_and_a_used_up_chain_is_renewed_first(table, monkeypatch):
    monkeypatch.setenv("CHRONICLE_DICE_CHAIN", "3")
    for _ in range(7):
        table.json("roll", "d6", "--for", "Bruno")
    events = table.events()
    types = [e["type"] for e in events[2:]]
    assert types == ["DiceCommitted", *["DiceRolled"] * 3] * 2 + ["DiceCommitted", "DiceRolled"]
    assert [f["index"] for f in table.fair()] == [1, 2, 3, 1, 2, 3, 1]
    verified = table.json("verify")
    assert verified["ok"] and verified["dice"] == {"fair": 7, "device_seeded": 0, "skipped": []}


def test_an_attack_and_each_of_its_hits_reveal_a_seed_of_their_own(db):
    run = Unseeded(db)
    run.json("campaign", "new", "Pot", "--system", "potestas")
    run.json(
        "character", "add", "Ivanior", "--stat", "str=14", "--stat", "bab=15", "--stat", "weapons=sword:damage=1d8"
    )
    run.json("character", "add", "Guard", "--stat", "fort=2", "--stat", "defence=8")
    attacked = run.json("attack", "Ivanior", "Guard", "--weapon", "sword", "--iterative", "--roll", "19")
    assert len(attacked["injuries"]) == 3  # the table's 19 hits, twice more by iteration: each hit saves
    assert [f["index"] for f in run.fair()] == [f["index"] for f in attacked["fair_dice"]] == [1, 2, 3, 4]
    attack = next(e for e in run.events() if e["type"] == "Attacked")["data"]["dice"]
    assert [r["source"] for r in attack["rolls"]][:1] == ["table"] and "ledger" in [
        r["source"] for r in attack["rolls"]
    ]
    assert run.json("verify")["ok"]


def test_a_command_that_loses_a_race_and_decides_again_takes_no_more_seeds(table, monkeypatch):
    save, lost = Session.save, list[bool]()

    def loses_once(self):
        if not lost:
            lost.append(True)
            raise IntegrityError("another writer took this version first")
        return save(self)

    monkeypatch.setattr(Session, "save", loses_once)
    assert table.json("roll", "d20", "--for", "Bruno")["fair_dice"][0]["index"] == 1
    monkeypatch.setattr(Session, "save", save)
    assert table.json("roll", "d20", "--for", "Bruno")["fair_dice"][0]["index"] == 2
    assert lost and [f["index"] for f in table.fair()] == [1, 2]
    assert table.json("verify")["dice"]["skipped"] == []


def test_a_refused_command_takes_no_seed(table, monkeypatch):
    table.json("roll", "d20", "--for", "Bruno")

    def refused(self):
        raise Refusal("not this time")

    monkeypatch.setattr(Session, "save", refused)
    assert table("roll", "d20", "--for", "Bruno").exit_code == 1
    monkeypatch.undo()
    table.json("roll", "d20", "--for", "Bruno")
    assert [f["index"] for f in table.fair()] == [1, 2]


def test_unrevealed_seeds_stay_in_storage_and_in_no_export(table, tmp_path):
    table.json("roll", "d20", "--for", "Bruno")
    revealed = table.fair()[0]["seed"]
    kept = {idx: bytes(seed).hex() for idx, seed in sql(table.db, f"SELECT idx, seed FROM {SEEDS}")}  # noqa: S608
    assert sorted(kept) == list(range(1, 1025)) and kept.pop(1) == revealed
    assert hashlib.sha256(bytes.fromhex(kept[2])).hexdigest() == revealed  # the seed the chain goes on with
    exported = tmp_path / "greyhawk.jsonl"
    assert table("export", "--output", str(exported)).exit_code == 0
    text = exported.read_text()
    assert revealed in text and not any(seed in text for seed in kept.values())
    shown = table("--json", "log").stdout + table("--json", "campaign", "show").stdout + table("--json", "dice").stdout
    assert not any(seed in shown for seed in kept.values())


def test_a_new_chain_lets_the_seeds_of_the_last_one_go(table, monkeypatch):
    monkeypatch.setenv("CHRONICLE_DICE_CHAIN", "2")
    for _ in range(3):
        table.json("roll", "d20", "--for", "Bruno")
    assert sorted(sql(table.db, f"SELECT number, idx FROM {SEEDS}")) == [(2, 1), (2, 2)]  # noqa: S608


def test_with_the_ledgers_key_the_seeds_are_encrypted_as_its_events_are(db, monkeypatch):
    key = base64.b64encode(bytes(range(32))).decode()
    monkeypatch.setenv("CHRONICLE_CIPHER_KEY", key)
    run = Unseeded(db)
    run.json("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run.json("roll", "d20")
    run.json("roll", "d20")
    second = run.fair()[1]["seed"]
    stored = {idx: bytes(seed) for idx, seed in sql(db, f"SELECT idx, seed FROM {SEEDS}")}  # noqa: S608
    assert len(stored[3]) > 32 and hashlib.sha256(stored[3]).hexdigest() != second  # not the seed itself

    from chronicle.ledger.store.chronicle import open_ledger

    app = open_ledger(db)
    try:
        cipher = app.mapper.cipher
        assert cipher is not None
        plain = cipher.decrypt(stored[3])
    finally:
        app.close()
    assert hashlib.sha256(plain).hexdigest() == second
    assert run.json("verify")["ok"]


def test_a_chain_length_that_is_no_number_is_one_clear_line(table, monkeypatch):
    monkeypatch.setenv("CHRONICLE_DICE_CHAIN", "lots")
    result = table("roll", "d20")
    assert result.exit_code == 2 and "CHRONICLE_DICE_CHAIN" in result.stderr and "Traceback" not in result.stderr
    assert table.fair() == []


def test_an_imported_campaign_commits_to_a_chain_of_its_own_and_still_verifies(table, tmp_path):
    table.json("roll", "d20", "--for", "Bruno")
    table.json("roll", "d20", "--for", "Bruno")
    exported = tmp_path / "greyhawk.jsonl"
    assert table("export", "--output", str(exported)).exit_code == 0
    copy = Unseeded(str(tmp_path / "copy.db"))
    copy.json("import", str(exported))
    assert copy.json("roll", "d20", "--for", "Bruno")["fair_dice"][0]["index"] == 1  # the old chain stayed behind
    assert [c["used"] for c in copy.json("dice")["commitments"]] == [2, 1]
    assert copy.json("verify")["dice"] == {"fair": 3, "device_seeded": 0, "skipped": []}


def test_a_replays_fork_keeps_its_copies_of_fair_rolls_checkable(table):
    table.json("roll", "d20", "--for", "Bruno")
    table.json("injure", "Bruno", "--damage", "5", "--mode", "lethal")
    table.json("replay", "Bruno", "--ruling", "death_at=-10", "--fork", "Greyhawk (what if)")
    forked = table.json("--campaign", "Greyhawk (what if)", "verify")
    assert forked["ok"] and forked["dice"]["fair"] == 1 and forked["dice"]["skipped"] == []
    from uuid import UUID

    from chronicle.ledger.application.views.fair_dice import fair_rolls
    from chronicle.ledger.store.chronicle import open_ledger

    shown = table.json("--campaign", "Greyhawk (what if)", "campaign", "show")
    positions = [e["position"] for e in table.json("--campaign", "Greyhawk (what if)", "log")["events"]]
    app = open_ledger(table.db)
    try:
        [copy] = fair_rolls(app, UUID(shown["id"]), positions).values()
    finally:
        app.close()
    assert copy["copied"] and copy["commitment"] is None  # the page checks its faces, its chain is the original's
