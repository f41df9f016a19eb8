"""Commands whose options differ by rule system (`injure`, `rest`, `attack`): the campaign's system
picks the real command from `cli/systems/<system>.py`, which parses the rest of the line."""

from __future__ import annotations

import importlib
from typing import Any

import click

from ..domain.systems import PACKAGES

SETTINGS = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}


def system_command(package: str, attribute: str) -> click.Command | None:
    module = importlib.import_module(f"{__package__}.systems.{package}")
    return getattr(module, attribute, None)


def dispatched(name: str, attribute: str, summary: str) -> click.Command:
    @click.command(name, context_settings=SETTINGS, add_help_option=False, help=summary)
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    @click.pass_context
    def command(ctx: click.Context, args: tuple[str, ...]) -> None:
        env = ctx.obj
        if args and args[0] in ("-h", "--help") and not _has_ledger(env):
            click.echo(_overview(name, attribute, summary))
            return
        system = env.read().campaign.system
        real = system_command(PACKAGES[system], attribute)
        if real is None:
            raise click.UsageError(f"{name} is not a {system} command")
        with real.make_context(name, list(args), parent=ctx.parent, obj=env) as sub:
            real.invoke(sub)

    return command


def _has_ledger(env: Any) -> bool:
    try:
        env.read().campaign
    except Exception:
        return False
    return True


def _overview(name: str, attribute: str, summary: str) -> str:
    lines = [f"Usage: chronicle {name} ... (the options depend on the campaign's system)", "", summary, ""]
    for system, package in PACKAGES.items():
        real = system_command(package, attribute)
        if real is not None:
            with click.Context(real, info_name=f"chronicle {name}") as ctx:
                lines.append(f"{system}: {real.get_usage(ctx)}")
    return "\n".join(lines)


injure = dispatched("injure", "injure", "Apply damage to NAME by the campaign's rules and record the outcome.")
rest = dispatched("rest", "rest", "Natural healing for NAME: --hours H or --minutes M [--interrupted].")
attack = dispatched("attack", "attack", "Resolve an attack by ATTACKER on TARGET and record it.")
