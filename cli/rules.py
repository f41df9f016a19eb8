"""`chronicle rules QUERY ...`: pure calculations from each system; nothing is read or written."""

from __future__ import annotations

import click

from .dispatch import system_command

# query name -> (system package, attribute in cli/systems/<package>.py)
QUERIES = {
    "fortitude-dc": ("potestas", "rules_fortitude_dc"),
    "falling": ("potestas", "rules_falling"),
    "monster-strength": ("adnd2e", "rules_monster_strength"),
    "mug-save": ("adnd2e", "rules_mug_save"),
}


class RulesGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(QUERIES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in QUERIES:
            return None
        return system_command(*QUERIES[name])


@click.group(cls=RulesGroup)
def rules() -> None:
    """Pure rule calculations that write nothing.

    \b
    Example:
      chronicle rules fortitude-dc 12 --json
    """
