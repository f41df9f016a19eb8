"""Commands whose options differ by rule system (`injure`, `rest`, `attack`): the campaign's system
picks the real command from `cli/systems/<system>.py`, which parses the rest of the line."""

from __future__ import annotations

import functools
import importlib

import click
from click.shell_completion import CompletionItem

from ..domain.systems import PACKAGES
from ..ledger.application.addresses import must_exist
from ..ledger.application.queries import CurrentCampaign
from .complete import campaign_command, wire
from .context import Env


class _Unparsed(click.Command):
    """Takes the rest of the line as it is (`ctx.args`), for the system's command to parse: Click's
    own parser would first try to match each of its options, and fail, at some cost per option."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.args = list(args)
        return ctx.args

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """The options of the campaign's system's command (`injure --` offers `--mode` in AD&D 2E)."""
        real = campaign_command(ctx, self.pick)  # type: ignore[attr-defined]
        if real is None:
            return []
        # Click's own completion (an option name, an option's value or an argument) of the real command,
        # through its public `ShellComplete`, in a context under this one
        from click.shell_completion import ShellComplete

        completion = ShellComplete(real, {"parent": ctx.parent, "obj": ctx.find_root().obj}, ctx.info_name or "", "")
        return completion.get_completions(list(ctx.args), incomplete)


@functools.cache  # a batch dispatches at every such line, and import_module costs some microseconds even when loaded
def system_command(package: str, attribute: str) -> click.Command | None:
    module = importlib.import_module(f"{__package__}.systems.{package}")
    found = getattr(module, attribute, None)
    return None if found is None else wire(found)


def dispatched(name: str, attribute: str, summary: str) -> click.Command:
    @click.command(name, cls=_Unparsed, add_help_option=False, help=summary)
    @click.pass_context
    def command(ctx: click.Context) -> None:
        env, args = ctx.obj, ctx.args
        if args and args[0] in ("-h", "--help") and not _has_ledger(env):
            click.echo(_overview(name, attribute, summary))
            return
        real = pick(env)
        with real.make_context(name, list(args), parent=ctx.parent, obj=env) as sub:
            real.invoke(sub)

    def pick(env: Env) -> click.Command:
        """The command of the campaign's system (parsing under the same parent context as this one)."""
        system = env.ledger.ask(CurrentCampaign()).document["system"]
        real = system_command(PACKAGES[system], attribute)
        if real is None:
            # only on this mistake: start-up imports none of the commands
            from ..ledger.application.commands import elsewhere

            raise click.UsageError(f"{name} is not a {system} command{elsewhere(name, system)}")
        return real

    command.pick = pick  # type: ignore[attr-defined]  # a batch picks it itself: one context less a line
    return command


def _has_ledger(env: Env) -> bool:
    """Whether the ledger exists and has a campaign (a missing SQLite file is not made to find out)."""
    try:
        must_exist(env.db)
        env.ledger.ask(CurrentCampaign())  # no campaign (or no ledger) raises
    except Exception:
        return False
    return True


def _overview(name: str, attribute: str, summary: str) -> str:
    lines = [f"Usage: chronicle {name} ... (the options depend on the campaign's system)", "", summary, ""]
    for system, package in PACKAGES.items():
        real = system_command(package, attribute)
        if real is not None:
            # the command's own context settings, as make_context would apply them: Click keeps the help
            # option it makes first, so a context without them would leave `--help` alone for good
            with click.Context(real, info_name=f"chronicle {name}", **real.context_settings) as ctx:
                lines.append(f"{system}: {real.get_usage(ctx)}")
    return "\n".join(lines)


injure = dispatched("injure", "injure", "Apply damage to NAME by the campaign's rules and record the outcome.")
rest = dispatched("rest", "rest", "Natural healing for NAME: --hours H or --minutes M [--interrupted].")
attack = dispatched("attack", "attack", "Resolve an attack by ATTACKER on TARGET and record it.")
