"""The contract's core commands, on SQLite and PostgreSQL, through Click's CliRunner."""

import json

import pytest


def test_campaign_new_then_show_lists_every_ruling_with_its_default(run):
    started = run.json("campaign", "new", "Greyhawk", "--system", "adnd2e")
    assert started["system"] == "adnd2e" and started["version"] == 1
    shown = run.json("campaign", "show")
    assert shown["name"] == "Greyhawk"
    assert shown["rulings"]["temporary_unconscious"] is True
    assert shown["counts"] == {"characters": 0, "events": 1}


def test_a_second_campaign_of_the_same_name_is_refused(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    again = run("--json", "campaign", "new", "Greyhawk", "--system", "adnd2e")
    assert again.exit_code == 1
    assert json.loads(again.stderr)["error"]["code"] == "refused"


def test_campaign_rule_changes_one_ruling_by_an_event_with_its_reason(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    changed = run.json("campaign", "rule", "temporary_recovery=2", "--reason", "house rule")
    assert changed["previous"] == 1 and changed["value"] == 2 and changed["version"] == 2
    assert run.json("campaign", "show")["rulings"]["temporary_recovery"] == 2
    last = run.json("log")["events"][-1]
    assert last["type"] == "RulingChanged" and last["data"]["reason"] == "house rule"


@pytest.mark.parametrize("assignment", ["no_such_key=1", "temporary_recovery=lots", "temporary_recovery"])
def test_a_bad_ruling_is_bad_input_and_writes_nothing(run, assignment):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    result = run("campaign", "rule", assignment, "--reason", "x")
    assert result.exit_code == 2
    assert len(run.json("log")["events"]) == 1


def test_character_add_show_and_list(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    added = run.json("character", "add", "Bruno", "--stat", "hp=30", "--stat", "str=18/76", "--stat", "level=9")
    assert added["version"] == 1
    shown = run.json("character", "show", "Bruno")
    assert shown["name"] == "Bruno" and shown["system"] == "adnd2e" and shown["version"] == 1
    assert shown["condition"]["hp"] == 30 and shown["condition"]["max_hp"] == 30
    assert shown["sheet"]["str"] == "18/76"
    listed = run.json("character", "list")["characters"]
    assert [c["name"] for c in listed] == ["Bruno"]


@pytest.mark.parametrize("stat", ["colour=blue", "hp=lots", "hp"])
def test_unknown_sheet_keys_and_bad_values_are_bad_input(run, stat):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    result = run("character", "add", "Bruno", "--stat", stat)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert run.json("character", "list")["characters"] == []


def test_an_unknown_character_is_bad_input(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    result = run("--json", "character", "show", "Nobody")
    assert result.exit_code == 2
    assert json.loads(result.stderr)["error"]["code"] == "not_found"


def test_roll_json_has_the_contract_keys_and_the_ledger_source(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    rolled = run.json("roll", "4d6kh3")
    assert set(rolled) >= {"event", "notation", "total", "faces", "source", "version"}
    assert len(rolled["faces"]) == 4 and rolled["source"] == "ledger"
    assert rolled["total"] == sum(sorted(rolled["faces"])[1:])


def test_roll_with_table_dice_records_source_table_on_the_character(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    rolled = run.json("roll", "2d6+1", "--dice", "3,5", "--for", "Bruno", "--reason", "morale")
    assert rolled["total"] == 9 and rolled["faces"] == [3, 5] and rolled["source"] == "table"
    event = run.json("log", "Bruno")["events"][-1]
    assert event["type"] == "DiceRolled" and event["data"]["reason"] == "morale"


def test_roll_prints_the_event_it_recorded_as_json_and_for_people(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    rolled = run.json("roll", "4d6kh3+1", "--dice", "3,5,1,6", "--for", "Bruno", "--reason", "morale")
    event = run.json("log", "Bruno")["events"][-1]
    assert rolled == {
        "event": event["id"],
        "version": 2,
        "notation": "4d6kh3+1",
        "total": 15,
        "faces": [3, 5, 1, 6],
        "kept": [True, True, False, True],
        "source": "table",
        "for": "Bruno",
        "reason": "morale",
    }
    shown = run("roll", "4d6kh3+1", "--dice", "3,5,1,6", "--for", "bruno").stdout
    assert shown.startswith("Bruno rolled 4d6kh3+1 (the table's own dice): 3, 5, 1 (dropped) and 6, a total of 15.")


@pytest.mark.parametrize("notation", ['__import__("os")', "2d", "d0", "1001d6"])
def test_bad_notation_exits_2_and_writes_nothing(run, notation):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    result = run("--json", "roll", notation)
    assert result.exit_code == 2 and result.stdout == ""
    assert "message" in json.loads(result.stderr)["error"]
    assert len(run.json("log")["events"]) == 1


def test_log_positions_versions_and_authors(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30", by="alice")
    run("roll", "d20", "--for", "Bruno", by="bob")
    events = run.json("log")["events"]
    assert [e["position"] for e in events] == sorted(e["position"] for e in events)
    assert [(e["character"], e["version"], e["by"]) for e in events] == [
        (None, 1, "gm"),
        ("Bruno", 1, "alice"),
        ("Bruno", 2, "bob"),
    ]
    assert {"id", "position", "time", "by", "character", "version", "type", "data"} <= set(events[0])
    since = run.json("log", "--since", f"#{events[1]['position']}")["events"]
    assert [e["id"] for e in since] == [e["id"] for e in events[1:]]
    assert [e["character"] for e in run.json("log", "Bruno")["events"]] == ["Bruno", "Bruno"]


def test_show_as_of_an_event_id_a_position_and_a_time(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    run("roll", "d20", "--for", "Bruno")
    events = run.json("log")["events"]
    registered = events[1]
    assert run.json("character", "show", "Bruno", "--as-of", registered["id"])["version"] == 1
    assert run.json("character", "show", "Bruno", "--as-of", f"#{registered['position']}")["version"] == 1
    assert run.json("character", "show", "Bruno", "--as-of", events[2]["time"])["version"] == 2
    assert run("character", "show", "Bruno", "--as-of", f"#{events[0]['position']}").exit_code == 2
    assert run("character", "show", "Bruno", "--as-of", "yesterday-ish").exit_code == 2


def test_of_several_campaigns_the_newest_is_current_until_another_is_chosen(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("campaign", "new", "Glorantha", "--system", "pendragon-pass")
    assert run.json("campaign", "show")["system"] == "pendragon-pass"
    assert run.json("--campaign", "Greyhawk", "campaign", "show")["system"] == "adnd2e"
    assert run.json("campaign", "show", "--campaign", "greyhawk")["system"] == "adnd2e"
    assert run("campaign", "use", "GREYHAWK").exit_code == 0
    assert run.json("campaign", "show")["system"] == "adnd2e"
    assert run.json("campaign", "show", "--campaign", "Glorantha")["system"] == "pendragon-pass"


def test_every_event_is_hash_chained_to_the_previous_one(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    run("roll", "d20", "--for", "Bruno")
    from chronicle.domain.campaign import campaign_id
    from chronicle.domain.character import character_id
    from chronicle.ledger.application.audit import history
    from chronicle.ledger.store.chronicle import open_ledger

    app = open_ledger(run.db)
    events = history(app, character_id(campaign_id("Greyhawk"), "Bruno"))
    assert events[0].prev_hash == "" and events[1].prev_hash == events[0].hash
    assert all(e.hash == e.content_hash() for e in events)
