"""The fair dice over HTTP (`serve --writes`), on SQLite and PostgreSQL: a signed document's device seed is
recorded with the roll and the answer names the seed it used; `/api/fair` gives a page what it needs to
derive a fair roll again and nothing of what the ledger keeps secret; with the ruling fair_dice=devices a
roll from a device without its seed, or with the table's own dice, is refused and nothing written."""

from __future__ import annotations

import hashlib

from .test_writes_http import error, table  # noqa: F401  (the fixture: Sartar, Ann's phone joined)

DEVICE = "c0" * 32


def test_a_signed_roll_is_fair_with_the_devices_seed_and_the_answer_names_it(table):  # noqa: F811
    answer = table.post({"command": "roll", "notation": "3d6", "for": "Vasana", "device_seed": DEVICE}, "roll-1")
    assert answer.status_code == 200, answer.text
    [used] = answer.json()["fair_dice"]
    events = table.run.json("log", "--campaign", "Sartar")["events"]
    roll = events[-1]
    assert [e["type"] for e in events[-2:]] == ["DiceCommitted", "DiceRolled"]
    fair = roll["data"]["dice"]["fair"]
    assert fair == {"index": used["index"], "seed": fair["seed"], "device_seed": DEVICE} and used["index"] == 1
    assert hashlib.sha256(bytes.fromhex(fair["seed"])).hexdigest() == used["head"] == events[-2]["data"]["head"]
    verified = table.run.json("--campaign", "Sartar", "verify")
    assert verified["ok"] and verified["dice"] == {"fair": 1, "device_seeded": 1, "skipped": []}

    positions = ",".join(str(e["position"]) for e in events)
    found = table.client.get(f"/api/fair?campaign={table.campaign}&positions={positions}").json()["rolls"]
    assert list(found) == [str(roll["position"])]
    shown = found[str(roll["position"])]
    assert shown["seed"] == fair["seed"] and shown["device_seed"] == DEVICE and shown["index"] == 1
    assert shown["rolls"] == [{"sides": 6, "faces": roll["data"]["faces"]}]
    assert shown["commitment"] == {"position": events[-2]["position"], "head": used["head"], "length": 1024}
    other = table.client.get(f"/api/fair?campaign={table.other}&positions={positions}").json()
    assert other == {"rolls": {}}  # another campaign's page sees none of Sartar's


def test_the_fair_rolls_address_takes_only_positions_and_a_known_campaign(table):  # noqa: F811
    assert "positions=" in error(table.client.get(f"/api/fair?campaign={table.campaign}&positions=1,x"), 400)
    assert "positions=" in error(table.client.get(f"/api/fair?campaign={table.campaign}&positions=" + "1," * 501), 400)
    error(table.client.get("/api/fair?campaign=nope&positions=1"), 400, "bad_input")
    error(table.client.get("/api/fair?campaign=00000000-0000-0000-0000-000000000000&positions=1"), 404)
    assert table.client.get(f"/api/fair?campaign={table.campaign}").json() == {"rolls": {}}


def test_a_bad_device_seed_is_refused_and_nothing_is_written(table):  # noqa: F811
    before = table.events()
    message = error(table.post({"command": "roll", "notation": "d20", "device_seed": "C0" * 32}, "bad-1"), 400)
    assert "device_seed" in message and table.events() == before


def test_under_fair_dice_devices_a_roll_from_a_device_is_the_ledgers_with_its_seed(table):  # noqa: F811
    table.run.json("--campaign", "Sartar", "campaign", "rule", "fair_dice=devices", "--reason", "rolls from phones")
    before = table.events()
    own = table.post({"command": "roll", "notation": "d20", "for": "Vasana", "roll": 17, "device_seed": DEVICE}, "n-1")
    assert "fair_dice=devices" in error(own, 409, "refused")
    unseeded = table.post({"command": "roll", "notation": "d20", "for": "Vasana"}, "n-2")
    assert "device_seed" in error(unseeded, 409, "refused")
    assert table.events() == before
    note = {"command": "note", "text": "no dice, no seed needed", "for": "Vasana"}
    assert table.post(note, "n-3").status_code == 200
    fair = table.post({"command": "roll", "notation": "d20", "for": "Vasana", "device_seed": DEVICE}, "n-4")
    assert fair.status_code == 200 and fair.json()["fair_dice"][0]["index"] == 1, fair.text
    assert (
        table.run.json("--campaign", "Sartar", "roll", "d20", "--roll", "4")["source"] == "table"
    )  # the gm's terminal
