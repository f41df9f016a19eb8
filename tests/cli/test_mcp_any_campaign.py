"""An assistant on the official SDK's client, as its author would use it: tools whose schemas have their
fields at the top level and fit a small budget, any campaign named per call without writing to choose it,
what-ifs that write nothing, the CLI's refusals word for word, and `--as` with the role checks of every
front door; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # (mcp's dependency ships no types)
import pytest
from assistants import Table, drive
from click.testing import CliRunner
from mcp import Client, types

from chronicle.cli.assistant.desk import Desk
from chronicle.cli.assistant.examples import EXAMPLES
from chronicle.cli.assistant.server import _tool
from chronicle.cli.assistant.tools import call, listing
from chronicle.cli.main import chronicle

BUDGET = 25 * 1024  # the whole `tools/list` answer of a database of one rule system, in bytes


@pytest.fixture
def table(run, tmp_path, monkeypatch) -> Table:
    return Table(run, tmp_path, monkeypatch, also=("Hommlet",))


def test_an_assistant_reads_records_and_asks_what_if_in_a_campaign_that_is_not_the_current_one(table):
    before = table.events("Greyhawk")

    async def session(client: Client) -> dict[str, Any]:
        listed = await client.list_tools()
        done: dict[str, Any] = {"listed": listed}
        done["shown"] = await client.call_tool("character_show", {"name": "Aric", "campaign": "Greyhawk"})
        done["wound"] = await client.call_tool(
            "injure", {"name": "Aric", "damage": 14, "save_roll": 3, "campaign": "Greyhawk"}
        )
        done["replay"] = await client.call_tool("replay", {"ruling": ["disable_margin=5"], "campaign": "Greyhawk"})
        logged = await client.call_tool("log", {"tail": 1, "campaign": "Greyhawk"})
        done["at"] = at = logged.structured_content["events"][-1]["position"]
        correction = {"ref": str(at), "reason": "the die showed 20", "save_roll": 20, "campaign": "Greyhawk"}
        done["dry_run"] = await client.call_tool("amend", {**correction, "dry_run": True})
        same = {**correction, "save_roll": 3, "reason": "no change"}
        done["same"] = await client.call_tool("amend", same)
        done["nobody"] = await client.call_tool("injure", {"name": "Nobody", "damage": 3, "campaign": "Greyhawk"})
        done["negative"] = await client.call_tool("rest", {"name": "Aric", "hours": -8, "campaign": "Greyhawk"})
        return done

    done = drive(table.server("gm"), session)

    # every schema an object with its fields at the top level; the whole list within the budget
    tools = {tool.name: tool for tool in done["listed"].tools}
    for name, tool in tools.items():
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.input_schema["type"] == "object" and "campaign" in tool.input_schema["properties"], name
        assert not {"anyOf", "oneOf", "allOf"} & set(tool.input_schema), name
    assert len(done["listed"].model_dump_json(by_alias=True, exclude_none=True).encode()) < BUDGET
    assert tools["rest"].input_schema["properties"]["hours"]["minimum"] == 0

    # read and written in Greyhawk, while Hommlet stays the user's current campaign
    assert not done["shown"].is_error and done["shown"].structured_content["name"] == "Aric"
    assert not done["wound"].is_error and done["wound"].structured_content["condition"]["wounds"] == 1
    assert table.events("Greyhawk") == before + 1
    assert table.cli("gm", "campaign", "show")["name"] == "Hommlet"

    # what-ifs answer and write nothing
    assert not done["replay"].is_error and "fork" not in done["replay"].structured_content
    assert "nothing written" in done["replay"].content[0].text
    dry = done["dry_run"]
    assert not dry.is_error and dry.structured_content["dry_run"] is True
    assert {change["field"] for change in dry.structured_content["changes"]} >= {"outcome"}
    assert dry.content[0].text.startswith(f"Would correct #{done['at']} (Aric)")
    assert table.events("Greyhawk") == before + 1

    # refused as the CLI refuses: the same code and message
    exit_code, error = table.refused(
        "gm", "--campaign", "Greyhawk", "amend", str(done["at"]), "--save-roll", "3", "--reason", "no change"
    )
    assert exit_code == 1 and done["same"].is_error and done["same"].structured_content == error
    exit_code, error = table.refused("gm", "--campaign", "Greyhawk", "injure", "Nobody", "--damage", "3")
    assert exit_code == 2 and done["nobody"].structured_content == error
    exit_code, error = table.refused("gm", "--campaign", "Greyhawk", "rest", "Aric", "--hours", "-8")
    negative = done["negative"].structured_content["error"]  # (a document's problem names its command)
    assert exit_code == 2 and negative == {**error["error"], "message": f"rest: {error['error']['message']}"}
    assert table.events("Greyhawk") == before + 1


def test_as_a_player_an_assistant_records_only_for_their_own_characters(table):
    async def as_ann(client: Client) -> dict[str, Any]:
        other = await client.call_tool("injure", {"name": "Aric", "damage": 5, "save_roll": 20, "campaign": "Greyhawk"})
        own = await client.call_tool("injure", {"name": "Brand", "damage": 5, "save_roll": 20, "campaign": "Greyhawk"})
        return {"other": other, "own": own}

    ann = drive(table.server("Ann", "--as", "Ann"), as_ann)
    exit_code, error = table.refused(
        "Ann", "--campaign", "Greyhawk", "injure", "Aric", "--damage", "5", "--save-roll", "20"
    )
    assert exit_code == 1 and error["error"]["code"] == "forbidden"  # (the table view's 403)
    assert ann["other"].is_error and ann["other"].structured_content == error
    assert not ann["own"].is_error
    last = table.cli("gm", "--campaign", "Greyhawk", "log", "--tail", "1")["events"][-1]
    assert (last["character"], last["by"], last["key"]) == ("Brand", "Ann", table.keys["Ann"])

    async def gm_as_ann(client: Client) -> Any:
        return await client.call_tool("injure", {"name": "Brand", "damage": 5, "save_roll": 20, "campaign": "Greyhawk"})

    borrowed = drive(table.server("gm", "--as", "Ann"), gm_as_ann)  # the gm's key is not Ann's
    assert borrowed.is_error and borrowed.structured_content["error"]["code"] == "forbidden"
    assert "acting as 'Ann', but the identity in use is gm's key" in borrowed.structured_content["error"]["message"]


@pytest.mark.parametrize("system", ["potestas", "adnd2e", "pendragon-pass"])
def test_the_tools_of_a_database_of_one_system_fit_the_budget_and_only_its_commands(tmp_path, system):
    db = str(tmp_path / "one.db")
    made = CliRunner().invoke(chronicle, ["--db", db, "--by", "gm", "campaign", "new", "C", "--system", system])
    assert made.exit_code == 0, made.stderr
    listed = listing(Desk(db, "gm", None, True))
    answer = types.ListToolsResult(tools=[_tool(each) for each in listed])
    size = len(answer.model_dump_json(by_alias=True, exclude_none=True).encode())  # (as the server sends it)
    assert size < BUDGET
    names = {each.name for each in listed}
    assert ("oath_swear" in names) == (system == "pendragon-pass") and ("grab_person" in names) == (system == "adnd2e")
    assert ("dying_save" in names) == (system == "potestas")
    assert len(listing()) > len(listed)  # (without a database: every system's)


def test_every_tool_says_one_example_that_its_schema_takes():
    for each in listing():
        assert "  " not in each.description and each.description.count("Example: ") == 1, each.name
        example = json.loads(each.description.split("Example: ")[1])
        assert example in EXAMPLES.values(), each.name
        assert jsonschema.Draft202012Validator(each.schema).is_valid(example), each.name


def test_a_subcommand_is_a_tool_of_its_own_named_as_its_command_document(run_sqlite):
    run_sqlite("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run_sqlite("character", "add", "Vinga", "--stat", "siz=15", "--stat", "con=13")
    desk = Desk(run_sqlite.db, "gm", None, True)
    names = {each.name for each in listing(desk)}
    assert {"oath_swear", "oath_fulfil", "oath_break", "geas_take", "character_add", "session_start"} <= names
    assert not {"oath", "geas", "character", "session", "campaign_use"} & names
    sworn = call(desk, "oath_swear", {"name": "Vinga", "text": "Avenge my father", "id": "o1"})
    assert "Avenge my father" in sworn.text
    with pytest.raises(Exception, match="unknown key 'action'"):
        call(desk, "oath_break", {"action": "break", "name": "Vinga", "oath": "o1"})


def test_a_command_that_differs_by_system_is_one_tool_of_the_schema_commands_json_gives(run_sqlite):
    injure = run_sqlite.json("commands")["commands"]["injure"]["schema"]
    assert jsonschema.Draft202012Validator(injure).is_valid({"command": "injure", "name": "Aric", "damage": 14})
    # every system's tool is `commands --json`'s schema without `command`: the same fields, made lean
    tool = next(each for each in listing() if each.name == "injure").schema
    assert set(tool["properties"]) == set(injure["properties"]) - {"command", "device_seed"} | {"campaign"}
    assert tool["required"] == ["name", "damage"] and '"title"' not in json.dumps(tool)


def test_where_the_campaign_is_known_a_fields_known_values_are_its_enum(run_sqlite, monkeypatch):
    from chronicle.cli.assistant import choices

    run_sqlite("campaign", "new", "Greyhawk", "--system", "potestas")
    desk = Desk(run_sqlite.db, "gm", None, True)
    known = {"injure": {"name": ["Aric", "Brand"], "type": ["slashing", "piercing"]}}
    monkeypatch.setattr(choices, "offered", lambda ledger, command: known.get(command, {}))
    injure = next(each for each in listing(desk) if each.name == "injure")
    assert injure.schema["properties"]["name"]["enum"] == ["Aric", "Brand"]
    run_sqlite("campaign", "new", "Hommlet", "--system", "potestas")  # two campaigns, none named: not known
    injure = next(each for each in listing(desk) if each.name == "injure")
    assert "enum" not in injure.schema["properties"]["name"]
    injure = next(each for each in listing(Desk(run_sqlite.db, "gm", "Greyhawk", True)) if each.name == "injure")
    assert injure.schema["properties"]["type"]["enum"] == ["slashing", "piercing"]


def test_prompts_tell_the_tables_common_asks_and_each_session_is_a_resource(run_sqlite, tmp_path, monkeypatch):
    table = Table(run_sqlite, tmp_path, monkeypatch, also=("Hommlet",))
    table.cli("gm", "--campaign", "Greyhawk", "session", "start", "The road")
    table.cli("gm", "--campaign", "Greyhawk", "injure", "Aric", "--damage", "14", "--save-roll", "3")
    table.cli("gm", "--campaign", "Greyhawk", "session", "end")
    logged = table.cli("gm", "--campaign", "Greyhawk", "log", "--session", "1")

    async def session(client: Client) -> dict[str, Any]:
        done: dict[str, Any] = {"prompts": (await client.list_prompts()).prompts}
        done["recap"] = await client.get_prompt("recap_last_session", {"campaign": "Greyhawk"})
        done["ruling"] = await client.get_prompt("explain_ruling", {"ruling": "dying_dc", "campaign": "Greyhawk"})
        done["since"] = await client.get_prompt(
            "character_since", {"name": "Aric", "since": "#1", "campaign": "Greyhawk"}
        )
        try:
            await client.get_prompt("explain_ruling", {"ruling": "dying_cd", "campaign": "Greyhawk"})
        except Exception as problem:
            done["typo"] = str(problem)
        done["listed"] = [str(each.uri) for each in (await client.list_resources()).resources]
        done["log"] = await client.read_resource("chronicle://log/Greyhawk/1")
        return done

    done = drive(table.server("gm"), session)
    assert [each.name for each in done["prompts"]] == ["recap_last_session", "explain_ruling", "character_since"]
    recap = done["recap"].messages[0].content.text
    assert "last session of the campaign Greyhawk" in recap and "Aric" in recap
    ruling = done["ruling"].messages[0].content.text
    assert "ruling dying_dc" in ruling and "10_plus_rounds" in ruling and "A dying save's DC" in ruling
    since = done["since"].messages[0].content.text
    assert "Aric takes a wound" in since and "1 wound" in since
    assert "did you mean 'dying_dc'" in done["typo"]
    assert "chronicle://log/Greyhawk/1" in done["listed"]
    text, document = done["log"].contents
    assert json.loads(document.text) == logged and "Aric takes a wound" in text.text


def test_the_tools_take_the_same_choices_as_the_pages_forms(run_sqlite):
    run_sqlite("campaign", "new", "Greyhawk", "--system", "potestas")
    run_sqlite("character", "add", "Aric", "--stat", "fort=3")
    run_sqlite("character", "add", "Brand", "--stat", "fort=2")
    injure = next(each for each in listing(Desk(run_sqlite.db, "gm", None, True)) if each.name == "injure")
    assert injure.schema["properties"]["name"]["enum"] == ["Aric", "Brand"]
    assert "slashing" in injure.schema["properties"]["type"]["enum"]
