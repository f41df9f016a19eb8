"""Shell completion from the ledger: character and campaign names, and the options of the campaign's
system for the commands it picks (`injure`, `rest`, `attack`). Completion never fails loudly and
never creates a ledger: whatever goes wrong offers nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

from ..ledger.storage import must_exist
from .context import Env

if TYPE_CHECKING:
    from ..ledger.session import Session

# Arguments that name a character of the campaign, in every command that has one.
CHARACTER_ARGUMENTS = frozenset(
    {"name", "names", "old", "target", "attacker", "mugger", "victim", "grabber", "holder", "held", "defender", "who"}
)
CHARACTER_OPTIONS = frozenset({"for_", "attacker", "target"})


def env_of(ctx: click.Context) -> Env:
    """The global options as typed so far (completion runs no group callback: there is no Env yet)."""
    root = ctx.find_root()
    if isinstance(root.obj, Env):
        return root.obj
    params = root.params
    root.obj = Env.from_options(params.get("db"), False, params.get("by"), params.get("campaign"), None)
    return root.obj


def _session(ctx: click.Context) -> Session:
    """A reading session on the ledger the command line names (never creating one)."""
    env = env_of(ctx)
    must_exist(env.db)
    return env.read()


def _offered(names: list[str], incomplete: str) -> list[CompletionItem]:
    folded = incomplete.casefold()
    return [CompletionItem(name) for name in names if name.casefold().startswith(folded)]


def character_names(ctx: click.Context, _: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        session = _session(ctx)
        return _offered([c.name for c in session.characters()], incomplete)
    except Exception:  # completion offers what it can; it never prints an error into the shell
        return []


def campaign_names(ctx: click.Context, _: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        session = _session(ctx)
        session.app.index.catch_up()
        return _offered([name for _, name, _ in session.app.index.campaigns()], incomplete)
    except Exception:  # as above
        return []


def campaign_command(ctx: click.Context, pick: Callable[[Any], click.Command]) -> click.Command | None:
    """The campaign's own command behind a dispatched one, for completing its options."""
    try:
        _session(ctx)
        return pick(env_of(ctx))
    except Exception:  # no ledger or campaign yet: nothing to offer
        return None


HELP_OPTIONS = ["-h", "--help"]


def wire(command: click.Command) -> click.Command:
    """Give a loaded command's name arguments (and its subcommands') completion from the ledger, and the
    CLI's help option names as its own: Click keeps the help option a command makes first, so one first
    asked under a context without them (a test's, a help overview's) would offer `--help` alone for good."""
    command.context_settings.setdefault("help_option_names", HELP_OPTIONS)
    for param in command.params:
        if param._custom_shell_complete is not None:  # noqa: SLF001  (a command's own wins)
            continue
        if isinstance(param, click.Argument) and param.name in CHARACTER_ARGUMENTS:
            param._custom_shell_complete = character_names  # noqa: SLF001
        elif isinstance(param, click.Option) and param.name in CHARACTER_OPTIONS:
            param._custom_shell_complete = character_names  # noqa: SLF001
        elif param.name == "campaign":
            param._custom_shell_complete = campaign_names  # noqa: SLF001
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            wire(sub)
    return command
