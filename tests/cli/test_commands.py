"""Commands as data: every Click command that writes builds its command's document model, whose keys are
the command line's names, and `chronicle commands --json` publishes each document's schema."""

from __future__ import annotations

import importlib

import click
import pytest

from chronicle.cli.commanding import document_keys, resolved
from chronicle.cli.main import COMMANDS, chronicle
from chronicle.domain.systems import PACKAGES
from chronicle.ledger.application import commands


def click_commands() -> list[tuple[str, click.Command]]:
    """Every command a line can name, the systems' real commands and group subcommands included."""
    found: list[tuple[str, click.Command]] = []
    root = click.Context(chronicle, info_name="chronicle")
    for name in COMMANDS:
        command = chronicle.get_command(root, name)
        assert command is not None, name
        found.append((name, command))
    for package in PACKAGES.values():
        module = importlib.import_module(f"chronicle.cli.systems.{package}")
        found += [(name, getattr(module, name)) for name in ("injure", "rest", "attack") if hasattr(module, name)]
    for name, command in list(found):
        if isinstance(command, click.Group):
            for sub in command.list_commands(root):
                subcommand = command.get_command(root, sub)
                assert subcommand is not None, sub
                found.append((f"{name} {sub}", subcommand))
    return found


WRITING = [(name, command) for name, command in click_commands() if hasattr(command.callback, "executes")]


def test_the_commands_that_write_build_documents():
    named = {name for name, _ in WRITING}
    assert {"campaign new", "character add", "note", "roll", "session start"} <= named


@pytest.mark.parametrize(("name", "command"), WRITING, ids=[name for name, _ in WRITING])
def test_a_command_line_names_its_documents_keys(name, command):
    model = resolved(command.callback.executes)
    assert model.command == name
    assert name in commands.CATALOGUE
    fields = {field.alias or key for key, field in model.model_fields.items()}
    fields.discard("device_seed")  # a device's own: the command line has no device apart from the ledger
    assert set(document_keys(command).values()) == fields


def test_commands_json_publishes_every_document_schema(run_sqlite):
    listed = run_sqlite.json("commands")["commands"]
    assert set(listed) == set(commands.CATALOGUE)
    roll = listed["roll"]
    assert roll["systems"] == [] and roll["summary"].startswith("Roll dice")
    schema = roll["schema"]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["command"] == {"const": "roll"}
    assert schema["required"] == ["command", "notation"] and schema["additionalProperties"] is False
    assert listed["campaign new"]["schema"]["properties"]["system"]["enum"] == ["potestas", "adnd2e", "pendragon-pass"]


def test_a_command_that_differs_by_system_publishes_one_object_of_every_systems_fields(run_sqlite):
    listed = run_sqlite.json("commands")["commands"]
    for name, entry in listed.items():
        assert entry["schema"]["type"] == "object" and "properties" in entry["schema"], name
        assert not {"anyOf", "oneOf", "allOf"} & set(entry["schema"]), name
    injure = listed["injure"]["schema"]
    assert injure["required"] == ["command", "name", "damage"] and injure["additionalProperties"] is False
    assert injure["properties"]["mode"]["description"].endswith("(adnd2e only)")  # (a field some systems lack)
    assert injure["properties"]["damage"]["description"].startswith("potestas: Damage before DR")
    assert {"nonlethal", "mode", "at"} <= set(injure["properties"])  # (Potestas's, AD&D's, PenDragon Pass's)
    for system in ("potestas", "adnd2e", "pendragon-pass"):  # each system's own fields are the union's
        own = commands.schema_of(commands.model_for("injure", system))
        assert set(own["properties"]) <= set(injure["properties"]), system


def test_an_oath_fulfilled_gives_no_negative_status_in_its_schema_either(run_sqlite):
    status = run_sqlite.json("commands")["commands"]["oath fulfil"]["schema"]["properties"]["status"]
    assert (status["minimum"], status["maximum"]) == (0, 1_000_000) and "ge" not in status


def test_commands_for_people_is_a_table_of_sentences(run_sqlite):
    result = run_sqlite("commands")
    assert result.exit_code == 0
    assert "campaign new" in result.stdout and "every system" in result.stdout
    assert "{" not in result.stdout


def test_commands_json_given_a_campaign_gives_its_systems_commands_with_the_sheets_choices(run_sqlite):
    run = run_sqlite
    run.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "sword=15")
    run.json("character", "add", "Korol", "--stat", "siz=12", "--stat", "spear=12")
    run.json("injure", "Vasana", "--damage", "8", "--attacker", "a troll")
    run.json("oath", "swear", "Vasana", "slay the troll")
    listed = run.json("commands", "--campaign", "Sartar", "--character", "vasana")["commands"]
    assert "attack" not in listed and "dying-save" not in listed  # other systems'
    check = listed["check"]["schema"]["properties"]
    assert "sword" in check["skill"]["enum"] and check["skill"]["x-labels"]["sword"] == "sword 15"
    assert "Korol:spear" in check["opposed_by"]["anyOf"][0]["enum"]
    assert listed["first-aid"]["schema"]["properties"]["wound"]["enum"] == [1]
    assert listed["oath fulfil"]["schema"]["properties"]["oath"]["enum"] == ["oath-1"]
    assert listed["status award"]["schema"]["properties"]["name"]["enum"] == ["Vasana", "Korol"]
    refused = run("--json", "commands", "--campaign", "Sartar", "--character", "Nobody")
    assert refused.exit_code == 2 and "Nobody" in refused.stderr
