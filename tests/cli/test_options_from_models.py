"""A command's arguments and options are its model's fields (cli/modelled.py): each field that is on the
command line says what the model says of it, and each of its values becomes the model's field of the same
key; a module of commands loads none of its models until one of them is parsed."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from chronicle.cli.main import COMMANDS, _load
from chronicle.cli.modelled import DEVICE_ONLY, Modelled, fields_of, model_of


def modelled() -> list[tuple[str, Modelled]]:
    found: list[tuple[str, Modelled]] = []

    def walk(path: str, command: click.Command) -> None:
        if isinstance(command, Modelled):
            found.append((path, command))
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(f"{path} {name}", sub)

    for name, target in COMMANDS.items():
        if not target.startswith("dispatch:"):
            walk(name, _load(target))
    return found


MODELLED = modelled()


def test_the_commands_that_read_and_those_of_every_system_are_their_models():
    paths = {path for path, _ in MODELLED}
    assert {"character show", "character add", "log", "verify", "campaign new", "roll", "amend", "replay"} <= paths


@pytest.mark.parametrize(("path", "command"), MODELLED, ids=[path for path, _ in MODELLED])
def test_each_option_says_what_its_models_field_says(path, command):
    model = model_of(command)
    described = {field.name: field for field in fields_of(model)}
    on_the_line = {param.name: param for param in command.params if param.name in described}
    for name, field in described.items():
        if (name in command.fields and command.fields[name] is None) or name in DEVICE_ONLY:
            assert name not in on_the_line  # the front door sets it (a device's own: no command line gives it)
            continue
        param, settings = on_the_line[name], command.fields.get(name) or {}
        if "required" not in settings:
            assert param.required == field.required, (path, name)
        if isinstance(param, click.Option) and "help" not in settings:
            assert param.help == (field.description or None), (path, name)
            assert field.description, f"{path}: --{field.key} says nothing ({model.__name__}.{name})"


def test_a_module_of_commands_loads_no_model_until_one_is_parsed():
    probe = (
        "import sys\n"
        "from chronicle.cli.main import _load\n"
        "_load('character:character')\n"
        "print('pydantic.main' in sys.modules, 'chronicle.ledger.application.commands.table' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]
