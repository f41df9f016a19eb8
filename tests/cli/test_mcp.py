"""`chronicle mcp` driven as an assistant drives it: the process started over stdio by the official SDK's
own client, its tools listed, a wound recorded and read back, a player's role refused, and `verify` ok
with every event signed by the identity in use; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # (mcp's dependency ships no types; types-jsonschema is not installed)
import pytest
from assistants import Table, drive
from mcp import Client

from chronicle.cli.assistant.desk import Desk
from chronicle.cli.assistant.resources import character_uri, read
from chronicle.cli.assistant.tools import call, listing, tool_name
from chronicle.ledger.application.commands import published


@pytest.fixture
def table(run, tmp_path, monkeypatch) -> Table:
    return Table(run, tmp_path, monkeypatch)


@pytest.fixture
def sqlite_table(run_sqlite, tmp_path, monkeypatch) -> Table:
    return Table(run_sqlite, tmp_path, monkeypatch)


def test_an_assistant_records_reads_is_refused_and_verifies(table):
    async def as_gm(client: Client) -> dict[str, Any]:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        wound = await client.call_tool("injure", {"name": "Aric", "damage": 14, "type": "slashing", "save_roll": 3})
        shown = await client.call_tool("character_show", {"name": "aric"})
        logged = await client.call_tool("log", {"name": "Aric"})
        unknown = await client.call_tool("injure", {"name": "Aric", "damage": 14, "colour": "red"})
        return {"tools": tools, "wound": wound, "shown": shown, "log": logged, "unknown": unknown}

    gm = drive(table.server("gm"), as_gm)

    # every command document of the campaign's system is a tool of its name, its input the document's
    # schema without `command`: the same fields, the same required ones, at the top level
    for command, entry in published().items():
        offered = command != "campaign use" and (not entry["systems"] or "potestas" in entry["systems"])
        assert (tool_name(command) in gm["tools"]) == offered, command  # (`campaign use` is the user's own)
        if offered and command != "replay":  # (replay's `fork` is optional: without it, the what-if)
            tool = gm["tools"][tool_name(command)].input_schema
            assert set(tool.get("required", [])) == set(entry["schema"]["required"]) - {"command"}, command
            if not entry["systems"]:  # (a command of every system: every field of its document)
                fields = set(entry["schema"]["properties"]) - {"command", "device_seed"}
                assert set(tool["properties"]) == fields | {"campaign"}, command
    assert {"log", "character_show", "campaign_show", "recap", "verify", "replay"} <= set(gm["tools"])
    assert "oath_swear" not in gm["tools"] and "grab_person" not in gm["tools"]  # PenDragon Pass's, AD&D's
    for name, tool in gm["tools"].items():
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.input_schema["type"] == "object" and "properties" in tool.input_schema, name
        assert not {"anyOf", "oneOf", "allOf"} & set(tool.input_schema), name
        assert "command" not in tool.input_schema["properties"], name
        assert "  " not in tool.description and "Example: {" in tool.description, name
    assert "dying_save" in gm["tools"] and gm["tools"]["log"].annotations.read_only_hint
    injure = jsonschema.Draft202012Validator(gm["tools"]["injure"].input_schema)
    assert injure.is_valid({"name": "Aric", "damage": 14, "campaign": "Greyhawk"})
    assert not injure.is_valid({"name": "Aric"}) and not injure.is_valid({"name": "Aric", "damage": -1})

    # the wound: the same document as `injure --json`, and its sentences
    wound = gm["wound"]
    assert not wound.is_error
    assert wound.structured_content["outcome"] == "wound"
    assert wound.structured_content["condition"]["wounds"] == 1
    assert "Aric takes a wound" in wound.content[0].text
    shown = gm["shown"]
    assert shown.structured_content["name"] == "Aric" and shown.structured_content["condition"]["wounds"] == 1
    assert shown.content[0].text.startswith("Aric (Potestas, version 2): 1 wound")
    events = gm["log"].structured_content["events"]
    assert [event["type"] for event in events] == ["CharacterRegistered", "Injured"]
    assert events[-1]["by"] == "gm" and events[-1]["key"] == table.keys["gm"]
    assert "local_time" not in events[-1] and "Aric takes a wound" in gm["log"].content[0].text
    assert gm["unknown"].is_error
    assert gm["unknown"].structured_content == {
        "error": {"code": "bad_input", "message": "injure: unknown key 'colour'"}
    }

    async def as_player(client: Client) -> dict[str, Any]:
        refused = await client.call_tool("injure", {"name": "Aric", "damage": 5, "save_roll": 20})
        own = await client.call_tool("injure", {"name": "Brand", "damage": 5, "save_roll": 20})
        verified = await client.call_tool("verify", {"require_signatures": True})
        logged = await client.call_tool("log", {"tail": 1})
        return {"refused": refused, "own": own, "verify": verified, "log": logged}

    ann = drive(table.server("Ann"), as_player)
    refused = ann["refused"]
    assert refused.is_error and refused.structured_content["error"]["code"] == "forbidden"
    assert refused.content[0].text.startswith("Error: ") and "Aric" in refused.content[0].text
    assert not ann["own"].is_error  # Brand is Ann's: recorded as Ann, signed with Ann's key
    (last,) = ann["log"].structured_content["events"]
    assert (last["character"], last["by"], last["key"]) == ("Brand", "Ann", table.keys["Ann"])
    report = ann["verify"].structured_content
    assert report["ok"] and report["problems"] == [] and report["unsigned"] == 0
    assert report["events"] == report["signed"] == 6  # 4 to set up, 2 wounds: the refusals wrote nothing
    assert ann["verify"].content[0].text.startswith("ok: 6 events")
    assert table.cli("gm", "verify")["ok"]


def test_resources_tell_each_campaign_and_character(sqlite_table):
    table = sqlite_table

    async def reading(client: Client) -> dict[str, Any]:
        listed = [str(resource.uri) for resource in (await client.list_resources()).resources]
        character = await client.read_resource(character_uri("Greyhawk", "Aric"))
        templates = (await client.list_resource_templates()).resource_templates
        return {"listed": listed, "character": character, "templates": templates}

    found = drive(table.server("gm"), reading)
    assert found["listed"] == [
        "chronicle://campaign/Greyhawk",
        "chronicle://character/Greyhawk/Aric",
        "chronicle://character/Greyhawk/Brand",
    ]
    text, document = found["character"].contents
    assert text.text.startswith("Aric (Potestas, version 1): unhurt") and "Aric was registered" in text.text
    assert json.loads(document.text)["character"]["condition"]["wounds"] == 0
    assert {template.uri_template for template in found["templates"]} == {
        "chronicle://campaign/{campaign}",
        "chronicle://character/{campaign}/{name}",
        "chronicle://log/{campaign}/{session}",
    }


def test_in_process_names_are_encoded_and_reads_write_nothing(run_sqlite, tmp_path):
    """The desk without a process: a name with spaces and a colon round-trips through its URI, a read of a
    database that does not exist is bad input and creates no file, and every tool is listed once."""
    missing = tmp_path / "missing.db"
    desk = Desk(str(missing), "gm", None, True)
    with pytest.raises(Exception, match="missing.db"):
        call(desk, "log", {})
    assert not missing.exists()

    run_sqlite("campaign", "new", "Demo: Sartar", "--system", "pendragon-pass")
    run_sqlite("character", "add", "Vasana Farosdaughter", "--stat", "siz=15", "--stat", "con=13")
    desk = Desk(run_sqlite.db, "gm", None, True)
    uri = character_uri("Demo: Sartar", "Vasana Farosdaughter")
    assert uri == "chronicle://character/Demo%3A%20Sartar/Vasana%20Farosdaughter"
    assert read(desk, uri).document["character"]["name"] == "Vasana Farosdaughter"
    names = [tool.name for tool in listing()]
    assert len(names) == len(set(names))
    assert call(desk, "campaign_show", {}).document["name"] == "Demo: Sartar"
