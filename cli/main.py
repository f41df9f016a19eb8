"""The `chronicle` command: global options, lazily loaded subcommands, errors translated in one place."""

from __future__ import annotations

import functools
import gc
import importlib
import os
from typing import Any

import click

from ..domain.errors import BadInput
from ..domain.text import check_arguments
from ..ledger.application.addresses import absent, discard_unwritten, must_exist
from .complete import campaign_names, wire
from .context import Env

# pydantic looks for plugins among every installed distribution's entry points when it builds its first
# validator (some 6-10 ms of each command that loads the rules); chronicle uses none. One set keeps its own.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

# command name -> "module:attribute"; modules load only when their command runs (fast start-up)
COMMANDS = {
    "campaign": "campaign:campaign",
    "character": "character:character",
    "roll": "roll:roll",
    "log": "log:log",
    "demo": "demo:demo",
    "rules": "rules:rules",
    "verify": "verify:verify",
    "checkpoint": "checkpoint:checkpoint",
    "dice": "dice:dice",
    "report": "report:report",
    "batch": "batch:batch",
    "shell": "shell:shell",
    "commands": "documents:commands",
    "rebuild": "rebuild:rebuild",
    "amend": "audit:amend",
    "replay": "audit:replay",
    "export": "transfer:export",
    "import": "transfer:import_",
    "identity": "identity:identity",
    "key": "key:key",
    "session": "session:session",
    "note": "note:note",
    "participant": "participant:participant",
    "serve": "serve:serve",
    "mcp": "mcp:mcp",
    "recap": "recap:recap",
    # the same name in several systems: the campaign's system picks the real command
    "injure": "dispatch:injure",
    "rest": "dispatch:rest",
    "attack": "dispatch:attack",
    # potestas
    "dying-save": "systems.potestas:dying_save",
    "exert": "systems.potestas:exert",
    "fall": "systems.potestas:fall",
    # adnd2e
    "mug": "systems.adnd2e:mug",
    "grab": "systems.adnd2e:grab",
    # pendragon-pass
    "check": "systems.pendragon:check",
    "status": "systems.pendragon:status",
    "increase": "systems.pendragon:increase",
    "oath": "systems.pendragon:oath",
    "geas": "systems.pendragon:geas",
    "feat": "systems.pendragon:feat",
    "tactic": "systems.pendragon:tactic",
    "first-aid": "systems.pendragon:first_aid",
    "chirurgery": "systems.pendragon:chirurgery",
    "heal": "systems.pendragon:heal",
    "winter": "systems.pendragon:winter",
    "experience": "systems.pendragon:experience",
}

# commands that only read: the queries the command line asks (ledger/application/queries' catalogue, read
# without importing any query), and these three; on a SQLite file that does not exist they are exit 2, naming
# it, and never create one (docs/scripting.md); `replay --fork` writes
READS_TOO = {"export", "serve", "dice"}


def reads_only(name: str, args: list[str]) -> bool:
    """Whether the command line only reads the ledger (asking for its help reads nothing)."""
    from ..ledger.application.queries import COMMAND_LINES

    if "--help" in args or "-h" in args:
        return False
    words = " ".join([name, *[arg for arg in args[:1] if not arg.startswith("-")]])
    reads = name in COMMAND_LINES or words in COMMAND_LINES or name in READS_TOO
    return reads and not (name == "replay" and "--fork" in args)


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        check_arguments(args)  # every argument a user types enters here (bytes that are not UTF-8: exit 2)
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta["chronicle.reads_only"] = bool(name) and reads_only(name, rest)  # type: ignore[arg-type]
        return name, command, rest

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        return None if target is None else _load(target)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Click's listing, from cli/summaries.py: `--help` loads no command module for it."""
        from .summaries import SUMMARIES

        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            summary = SUMMARIES.get(name)
            if summary is None:  # a command not summarised yet: ask it
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                rows.append((name, command.get_short_help_str(limit)))
            else:
                rows.append((name, click.Command(name, help=summary).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        """Say every failure in one line (ledger/application/failures.py): exit 1 a refusal, 2 bad input;
        never a traceback."""
        from .output import error

        try:
            return super().invoke(ctx)
        except click.ClickException as problem:
            if not _json(ctx):
                raise
            error(True, "usage", problem.format_message())
            ctx.exit(problem.exit_code)
        except (click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:  # stdout's reader stopped early (`| head`): Click ends quietly
            raise
        except Exception as problem:  # bad input, a refusal, a storage fault or a bug
            from ..ledger.application.failures import failure

            said = failure(problem)
            error(_json(ctx), said.code, said.message)
            ctx.exit(said.exit_code)


@functools.cache  # a batch asks for a command at every line
def _load(target: str) -> click.Command:
    module, attribute = target.split(":")
    return wire(getattr(importlib.import_module(f"{__package__}.{module}"), attribute))


def _json(ctx: click.Context) -> bool:
    if ctx.obj is None:  # an argument refused before the options were handed on: --json was parsed already
        return bool(ctx.params.get("as_json"))
    return bool(ctx.obj.json)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", metavar="TARGET", help="SQLite file or postgresql:// URL  [env CHRONICLE_DB; ./chronicle.db]")
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON document on stdout.")
@click.option("--by", metavar="NAME", help="Who records the events  [env CHRONICLE_BY; your user name]")
@click.option(
    "--campaign",
    metavar="NAME",
    shell_complete=campaign_names,
    help="Which campaign, when the database holds several  [env CHRONICLE_CAMPAIGN]",
)
@click.option("--seed", type=int, hidden=True, help="Seed the ledger's dice (tests and demos).")
@click.version_option(package_name="chronicle-ledger")
@click.pass_context
def chronicle(
    ctx: click.Context, db: str | None, as_json: bool, by: str | None, campaign: str | None, seed: int | None
) -> None:
    """An event-sourced campaign ledger: every roll, wound and award is an immutable event.

    \b
    Example:
      chronicle --db table.db campaign new Glorantha --system pendragon-pass
    """
    ctx.obj = Env.from_options(db, as_json, by, campaign, seed)
    check_arguments([text for text in (db, by, campaign) if text])
    _check_settings(ctx.obj, db, by, campaign)
    if db == "":
        raise BadInput("--db is empty: name a SQLite file or a postgresql:// URL")
    if ctx.meta.get("chronicle.reads_only"):
        must_exist(ctx.obj.db)
    elif absent(ctx.obj.db):  # nothing creates a database but a write that succeeds (ledger/store/fresh.py)
        ctx.call_on_close(functools.partial(discard_unwritten, ctx.obj.db))


LONGEST_TARGET = 4096  # characters of a --db: the longest path Linux opens (PATH_MAX); a URL is shorter


def _check_settings(env: Env, db: str | None, by: str | None, campaign: str | None) -> None:
    """The values the environment gave (`$CHRONICLE_BY`, ..., the user name), checked as arguments are,
    and a --db too long to be a path or URL: each one line of bad input naming the setting."""
    for given, value, variable in (
        (db, env.db, "$CHRONICLE_DB"),
        (by, env.by, "$CHRONICLE_BY (or your user name)"),
        (campaign, env.campaign, "$CHRONICLE_CAMPAIGN"),
    ):
        if not given and value:
            check_arguments([value], variable)
    if len(env.db) > LONGEST_TARGET:
        raise BadInput(f"--db is {len(env.db):,} characters long: no path or URL is longer than {LONGEST_TARGET:,}")


def tune_collector() -> None:
    """A command's process builds some hundred thousand objects as it starts (its modules, their classes and
    models) and few of them are garbage: the cyclic collector, at Python's default of a pass every 700
    allocations, spent some 10 ms of a one-shot append walking them. A pass every 100,000 keeps the same bound
    on garbage for long-running commands (`serve`, `shell`, a batch) at a fraction of the cost. Set by the
    process's entry point, never by importing the package (a program that imports chronicle keeps its own)."""
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(100_000, older, oldest)


def main() -> None:
    tune_collector()
    chronicle(prog_name="chronicle")
