"""Every command's --help teaches by example."""

import pytest
from click.testing import CliRunner

from chronicle.cli.main import COMMANDS, chronicle


def leaves(group, ctx, path):
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if hasattr(command, "list_commands"):
            yield from leaves(command, ctx, (*path, name))
        else:
            yield (*path, name)


def all_commands():
    import click

    with click.Context(chronicle) as ctx:
        return [p for p in leaves(chronicle, ctx, ()) if p[0] not in ("injure", "rest", "attack")]


@pytest.mark.parametrize("path", all_commands(), ids=" ".join)
def test_every_command_help_has_an_example(path):
    result = CliRunner().invoke(chronicle, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output


@pytest.mark.parametrize("name", ["injure", "rest", "attack"])
def test_system_dispatched_commands_show_each_systems_usage_outside_a_campaign(name, tmp_path):
    result = CliRunner().invoke(chronicle, ["--db", str(tmp_path / "none.db"), name, "--help"])
    assert result.exit_code == 0 and "depend on the campaign's system" in result.output


def test_the_command_map_is_the_help_listing():
    result = CliRunner().invoke(chronicle, ["--help"])
    assert all(name in result.output for name in COMMANDS)
