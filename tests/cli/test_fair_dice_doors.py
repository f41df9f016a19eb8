"""The fair dice through every front door but the web (tests/web has it): a device seed in a command document
(`batch --jsonl`, an assistant's tool call) is recorded with the roll it seeded and the reply names the seed
used; a bad one is one clear line and nothing written; `chronicle dice` lists the commitments and the fair
rolls' share; the campaign's `fair_dice` ruling refuses the table's own dice where it wants the ledger's."""

from __future__ import annotations

import json

import pytest
from reliability.edges import refused

from chronicle.cli.assistant.desk import Desk
from chronicle.cli.assistant.tools import call
from chronicle.domain.errors import BadInput
from chronicle.ledger.application.commands import potestas, table
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.trust.identity import load_or_create

DEVICE = "5e" * 32


@pytest.fixture
def greyhawk(run):
    run.json("campaign", "new", "Greyhawk", "--system", "potestas")
    run.json("character", "add", "Brand", "--stat", "fort=3")
    return run


def unseeded(run, *args: str, input: str | None = None):
    """`chronicle --db DB ARGS` with no --seed: the ledger rolls its fair dice."""
    from click.testing import CliRunner

    from chronicle.cli.main import chronicle

    return CliRunner().invoke(chronicle, ["--db", run.db, "--by", "gm", *args], input=input, catch_exceptions=False)


def fair_rolls(run) -> list[dict]:
    events = run.json("log")["events"]
    return [e["data"]["dice"]["fair"] for e in events if "fair" in (e["data"].get("dice") or {})]


def test_a_batch_of_documents_records_each_device_seed_with_its_roll(greyhawk):
    lines = [
        {"command": "roll", "notation": "2d6", "device_seed": DEVICE},
        {"command": "roll", "notation": "d20", "for": "Brand"},
        {"command": "injure", "name": "Brand", "damage": 9, "device_seed": "01" * 32},
    ]
    done = unseeded(greyhawk, "--json", "batch", "--jsonl", "-", input="\n".join(map(json.dumps, lines)))
    assert done.exit_code == 0, done.stderr
    fair = fair_rolls(greyhawk)
    assert [(f["index"], f["device_seed"]) for f in fair] == [(1, DEVICE), (2, None), (3, "01" * 32)]
    assert greyhawk.json("verify")["dice"] == {"fair": 3, "device_seeded": 2, "skipped": []}


def test_a_device_seed_that_is_not_64_lower_case_hex_is_bad_input_and_nothing_is_written(greyhawk):
    before = len(greyhawk.json("log")["events"])
    for seed in ("5E" * 32, "5e" * 31, "zz" * 32, 7):
        line = json.dumps({"command": "roll", "notation": "d20", "device_seed": seed})
        message = refused(unseeded(greyhawk, "batch", "--jsonl", "-", input=line), 2)
        assert "device_seed" in message
    assert len(greyhawk.json("log")["events"]) == before


def test_an_assistants_roll_names_the_seed_it_used(greyhawk):
    desk = Desk(greyhawk.db, "gm", None, True)
    reply = call(desk, "roll", {"notation": "3d6", "device_seed": DEVICE})
    [used] = reply.document["fair_dice"]
    [fair] = fair_rolls(greyhawk)
    assert used["index"] == fair["index"] == 1 and fair["device_seed"] == DEVICE
    with pytest.raises(BadInput, match="device_seed"):
        call(desk, "roll", {"notation": "3d6", "device_seed": "no"})


def test_dice_lists_the_commitments_and_the_fair_rolls_share(greyhawk, monkeypatch):
    assert greyhawk.json("dice") == {"commitments": [], "rolls": 0, "fair": 0}
    monkeypatch.setenv("CHRONICLE_DICE_CHAIN", "2")
    for _ in range(3):
        assert unseeded(greyhawk, "roll", "d20").exit_code == 0
    greyhawk.json("roll", "d20", "--roll", "7")  # the table's own die
    greyhawk.json("roll", "d20")  # a seeded ledger (tests, demos): its old generator, not fair
    listed = greyhawk.json("dice")
    committed = [e for e in greyhawk.json("log")["events"] if e["type"] == "DiceCommitted"]
    assert listed["commitments"] == [
        {"position": e["position"], "head": e["data"]["head"], "length": 2, "used": used}
        for e, used in zip(committed, [2, 1], strict=True)
    ]
    assert (listed["rolls"], listed["fair"]) == (5, 3)
    told = greyhawk("dice").stdout
    assert "3 of 5 rolls (60%) were the ledger's fair dice." in told and committed[0]["data"]["head"] in told


def test_a_campaign_may_want_every_roll_from_the_ledgers_fair_dice(greyhawk):
    greyhawk.json("campaign", "rule", "fair_dice=everyone", "--reason", "no fudging at this table")
    message = refused(greyhawk("roll", "d20", "--roll", "12"), 1)
    assert "fair_dice=everyone" in message and "leave them out and the ledger rolls" in message
    refused(greyhawk("injure", "Brand", "--damage", "9", "--save-roll", "3"), 1)
    assert unseeded(greyhawk, "injure", "Brand", "--damage", "9").exit_code == 0


def test_a_players_own_dice_are_refused_where_the_ruling_wants_players_rolls_fair(run_sqlite, tmp_path):
    ann = load_or_create(tmp_path / "ann")
    gm = Ledger(run_sqlite.db, by="gm")
    gm.execute(table.CampaignNew(name="Greyhawk", system="potestas"))
    gm.execute(table.CharacterAdd(name="Brand", stat=["fort=3"]))
    run_sqlite.json("participant", "add", "Ann", "--role", "player", "--plays", "Brand", "--key", ann.public_key_text)
    gm.execute(table.CampaignRule(assignment="fair_dice=players", reason="players roll on the ledger"))
    player = Ledger(run_sqlite.db, by="Ann", identity=ann)
    try:
        with pytest.raises(Exception, match="a player's rolls are the ledger's fair dice"):
            player.execute(potestas.Injure(name="Brand", damage=9, save_roll=3))
        assert player.execute(potestas.Injure(name="Brand", damage=9)).document["fair_dice"]
        assert gm.execute(potestas.Injure(name="Brand", damage=2, save_roll=20)).document  # the gm's own die
    finally:
        player.close()
        gm.close()
