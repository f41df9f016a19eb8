"""Shell completion from the ledger: character and campaign names, and the options of the campaign's
system for the commands it picks (`injure`, `rest`, `attack`); the same for the lines `chronicle shell`
reads. Completion never fails loudly and never creates a ledger: whatever goes wrong offers nothing."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import BashComplete, CompletionItem, ShellComplete, add_completion_class, split_arg_string

from ..ledger.application.addresses import must_exist
from .context import Env
from .modelled import Modelled
from .options import whole_numbers_within_64_bits

if TYPE_CHECKING:
    from ..ledger.application.ledger import Ledger

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


def _ledger(ctx: click.Context) -> Ledger:
    """The ledger the command line names, to read (never creating one)."""
    env = env_of(ctx)
    must_exist(env.db)
    return env.ledger


def _offered(names: list[str], incomplete: str) -> list[CompletionItem]:
    folded = incomplete.casefold()
    return [CompletionItem(name) for name in names if name.casefold().startswith(folded)]


def character_names(ctx: click.Context, _: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from ..ledger.application.queries import CharacterList

    try:
        party = _ledger(ctx).ask(CharacterList()).document["characters"]
        return _offered([c["name"] for c in party], incomplete)
    except Exception:  # completion offers what it can; it never prints an error into the shell
        return []


def campaign_names(ctx: click.Context, _: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from ..ledger.application.queries.pages import Campaigns

    try:
        listed = _ledger(ctx).ask(Campaigns()).document["campaigns"]
        return _offered([campaign["name"] for campaign in listed], incomplete)
    except Exception:  # as above
        return []


def campaign_command(ctx: click.Context, pick: Callable[[Any], click.Command]) -> click.Command | None:
    """The campaign's own command behind a dispatched one, for completing its options."""
    try:
        _ledger(ctx)
        return pick(env_of(ctx))
    except Exception:  # no ledger or campaign yet: nothing to offer
        return None


HELP_OPTIONS = ["-h", "--help"]


def wire(command: click.Command) -> click.Command:
    """Give a loaded command's name arguments (and its subcommands') completion from the ledger, and the
    CLI's help option names as its own: Click keeps the help option a command makes first, so one first
    asked under a context without them (a test's, a help overview's) would offer `--help` alone for good.
    Its whole-number parameters are held to 64 bits (cli/options.py)."""
    command.context_settings.setdefault("help_option_names", HELP_OPTIONS)
    if isinstance(command, Modelled):  # its parameters are wired once made (not on loading: cli/modelled.py)
        command.once_made(_wire_parameters)
    else:
        _wire_parameters(command)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            wire(sub)
    return command


def _wire_parameters(command: click.Command) -> None:
    for param in command.params:
        whole_numbers_within_64_bits(param)
        if param._custom_shell_complete is not None:  # noqa: SLF001  (a command's own wins)
            continue
        if isinstance(param, click.Argument) and param.name in CHARACTER_ARGUMENTS:
            param._custom_shell_complete = character_names  # noqa: SLF001
        elif isinstance(param, click.Option) and param.name in CHARACTER_OPTIONS:
            param._custom_shell_complete = character_names  # noqa: SLF001
        elif param.name == "campaign":
            param._custom_shell_complete = campaign_names  # noqa: SLF001


# What a shell reads as one word unquoted: shlex.quote's safe characters, letters of any script included
UNQUOTED = re.compile(r"[\w@%+=:,./-]+")


def quoted(value: str) -> str:
    """VALUE as one word of a command line: as it is when it needs no quotes, else in double quotes
    (`"Goblin Chief"`), else (it holds a character special there too) in single quotes."""
    if UNQUOTED.fullmatch(value):
        return value
    if not any(char in value for char in '"\\$`!'):
        return f'"{value}"'
    return shlex.quote(value)


@add_completion_class
class QuotingBashComplete(BashComplete):
    """Bash inserts what Click offers as it is: a name with a space would become two arguments
    (`Goblin Chief` then fails as an extra argument). Quoted, unless the word being completed opens a
    quote itself (bash keeps that quote). Zsh and fish quote what they insert themselves."""

    open_quote = False

    def get_completion_args(self) -> tuple[list[str], str]:
        try:
            shlex.split(os.environ.get("COMP_WORDS", ""))
        except ValueError:  # no closing quotation (or a last backslash): the word is typed inside quotes
            self.open_quote = True
        return super().get_completion_args()

    def format_completion(self, item: CompletionItem) -> str:
        if item.type != "plain" or self.open_quote:
            return super().format_completion(item)
        return f"{item.type},{quoted(item.value)}"


SHELL_WHITESPACE = " \t\r\n"  # shlex's


def word_start(text: str) -> int:
    """Where the word being typed at the end of TEXT starts (`len(TEXT)` between words), reading
    quotes and backslashes as shlex does."""
    start: int | None = None
    quote, escaped = "", False
    for at, char in enumerate(text):
        if escaped:
            escaped = False
        elif quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"':
                escaped = True
        elif char in SHELL_WHITESPACE:
            start = None
        else:
            if start is None:
                start = at
            if char in "\"'":
                quote = char
            elif char == "\\":
                escaped = True
    return len(text) if start is None else start


def line_completions(ctx: click.Context, text: str, refused: Collection[str] = ()) -> tuple[int, list[CompletionItem]]:
    """What Tab offers for the word at the end of TEXT, a command line as `chronicle shell` takes it
    (no program name, no global options), under CTX's invocation and its Env: where that word starts
    in TEXT, and Click's own completion of it (`ShellComplete`, with the completers above). No option
    of the program itself, nor a command in REFUSED, is offered as a line's first word."""
    start = word_start(text)
    try:
        args = shlex.split(text[:start])
        incomplete = split_arg_string(text[start:])[0] if start < len(text) else ""
        root = ctx.find_root()
        complete = ShellComplete(root.command, {"obj": root.obj}, root.info_name or "chronicle", "")
        items = complete.get_completions(args, incomplete)
    except Exception:  # as above: a line that cannot be read yet offers nothing
        return start, []
    if not args:
        items = [item for item in items if not item.value.startswith("-") and item.value not in refused]
    return start, items
