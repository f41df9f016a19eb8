"""Participants and signatures: who may record what, each event signed by its author's key, and `verify`
naming every signature, key or role that does not hold, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from reliability.forge import rechain

from chronicle.ledger.trust.identity import load_or_create


class Table:
    """A campaign at one database with a gm and a player, each with an identity (a home) of their own."""

    def __init__(self, run, tmp_path: Path, monkeypatch):
        self.run, self.monkeypatch, self.tmp = run, monkeypatch, tmp_path
        self.homes: dict[str, Path] = {}
        self.keys = {name: self.home(name) for name in ("gm", "Ann", "stranger")}

    def home(self, name: str) -> str:
        folder = self.tmp / f"home-{name}"
        self.homes[name] = folder
        return load_or_create(folder).public_key_text

    def as_(self, name: str, *args: str, by: str | None = None):
        self.monkeypatch.setenv("CHRONICLE_HOME", str(self.homes[name]))
        return self.run(*args, by=by or name)

    def json(self, name: str, *args: str):
        result = self.as_(name, "--json", *args)
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    def events(self) -> int:
        return len(self.json("gm", "log")["events"])


@pytest.fixture
def table(run, tmp_path, monkeypatch) -> Table:
    table = Table(run, tmp_path, monkeypatch)
    table.as_("gm", "campaign", "new", "Greyhawk", "--system", "adnd2e")
    table.as_("gm", "character", "add", "Aric", "--stat", "hp=20")
    table.as_("gm", "character", "add", "Brand", "--stat", "hp=20")
    added = table.as_(
        "gm", "participant", "add", "Ann", "--role", "player", "--plays", "aric", "--key", table.keys["Ann"]
    )
    assert added.exit_code == 0, added.stderr
    return table


def test_the_creator_is_the_first_gm_and_participants_are_listed(table):
    listed = table.json("gm", "participant", "list")["participants"]
    assert listed == [
        {"name": "gm", "role": "gm", "plays": [], "key": table.keys["gm"], "since": 1},
        {"name": "Ann", "role": "player", "plays": ["Aric"], "key": table.keys["Ann"], "since": 4},
    ]
    people = table.as_("gm", "participant", "list").stdout
    assert "Ann" in people and "player" in people and "Aric" in people


def test_a_player_records_for_their_character_signed_with_their_key(table):
    rolled = table.json("Ann", "roll", "d20", "--for", "Aric", "--roll", "14")
    last = table.json("gm", "log", "--tail", "1")["events"][-1]
    assert last["id"] == rolled["event"] and last["by"] == "Ann" and last["key"] == table.keys["Ann"]
    signed = last["data"]["signed"]
    assert signed["document"] == {"command": "roll", "notation": "d20", "for": "Aric", "reason": "", "roll": 14}
    report = table.json("gm", "verify")
    assert report["ok"] and report["signed"] == report["events"] and report["unsigned"] == 0


@pytest.mark.parametrize(
    ("who", "args", "expected"),
    [
        ("Ann", ("roll", "d20", "--for", "Brand"), "Ann does not play 'Brand'"),
        ("Ann", ("note", "the gm is late"), "Ann is a player: note on the whole campaign needs a gm"),
        ("Ann", ("campaign", "rule", "surprise_backstab=false", "--reason", "x"), "campaign rule needs a gm"),
        ("Ann", ("character", "add", "Cy"), "character add needs a gm"),
        ("Ann", ("participant", "add", "Bo", "--role", "gm", "--key", "ed25519:" + "A" * 43 + "="), "needs a gm"),
        ("stranger", ("roll", "d20"), "is no participant of campaign 'Greyhawk'"),
    ],
)
def test_what_a_role_does_not_allow_is_refused_and_writes_nothing(table, who, args, expected):
    before = table.events()
    refused = table.as_(who, "--json", *args)
    assert refused.exit_code == 1, refused.stderr
    error = json.loads(refused.stderr)["error"]
    assert expected in error["message"]
    assert table.events() == before


def test_a_player_records_as_themself(table):
    refused = table.as_("Ann", "--json", "roll", "d20", "--for", "Aric", by="gm")
    assert refused.exit_code == 1 and "records as themself" in json.loads(refused.stderr)["error"]["message"]


def test_a_removed_participants_key_signs_nothing_more(table):
    table.json("Ann", "roll", "d6", "--for", "Aric")
    table.json("gm", "participant", "remove", "Ann", "--reason", "moved away")
    assert table.as_("Ann", "roll", "d6", "--for", "Aric").exit_code == 1
    assert table.json("gm", "verify")["ok"]  # what Ann signed while she took part still stands


def test_a_lost_phones_key_is_replaced_from_that_point_on(table, tmp_path):
    table.json("Ann", "roll", "d6", "--for", "Aric")
    old = table.homes["Ann"]
    new_key = table.home("Ann")  # a new phone: a new home, a new key
    assert table.homes["Ann"] == old  # (same folder name: make it another)
    shutil.rmtree(old)
    new_key = load_or_create(old).public_key_text
    table.json("gm", "participant", "add", "Ann", "--role", "player", "--plays", "Aric", "--key", new_key)
    table.json("Ann", "roll", "d6", "--for", "Aric")
    report = table.json("gm", "verify")
    assert report["ok"], report["problems"]


def test_an_edited_signed_document_is_named_at_its_position_though_every_chain_is_recomputed(table, run):
    rolled = table.json("Ann", "roll", "d20", "--for", "Aric", "--roll", "3")
    position = table.json("gm", "log", "--tail", "1")["events"][-1]["position"]

    def forge(state):  # the document now says the table rolled a 20
        state["signed"]["document"]["roll"] = 20

    rechain(run.db, position, forge)
    result = table.as_("gm", "--json", "verify")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert any(p["position"] == position and "does not verify" in p["problem"] for p in problems), problems
    assert rolled["event"]


def test_an_event_signed_by_a_stranger_is_named_with_its_author(table, run):
    table.json("Ann", "roll", "d20", "--for", "Aric")
    position = table.json("gm", "log", "--tail", "1")["events"][-1]["position"]
    stranger = load_or_create(table.homes["stranger"])

    def forge(state):
        from chronicle.ledger.trust.signing import sign

        campaign = table.json("gm", "campaign", "show")["id"]
        state["signed"] = sign(stranger, campaign, state["signed"]["document"]).model_dump(mode="json")

    rechain(run.db, position, forge)
    result = table.as_("gm", "--json", "verify")
    problems = json.loads(result.stdout)["problems"]
    assert result.exit_code == 1
    assert any(p["position"] == position and "recorded by Ann" in p["problem"] for p in problems), problems


def test_older_ledgers_verify_unsigned_and_take_signed_events(tmp_path, monkeypatch):
    from conftest import ROOT, Run

    db = tmp_path / "old.db"
    shutil.copy(ROOT / "tests/fixtures/ledger-v1.db", db)
    run = Run(str(db))
    report = run.json("verify")
    assert report["ok"] and report["unsigned"] == report["events"] and report["signed"] == 0
    strict = run("--json", "verify", "--require-signatures")
    assert strict.exit_code == 1 and "unsigned" in strict.stdout
    name = run.json("character", "list")["characters"][0]["name"]
    run.json("roll", "d20", "--for", name)
    report = run.json("verify")
    assert report["ok"] and report["signed"] == 1
