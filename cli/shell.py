"""`chronicle shell`: the command lines `batch` takes, typed at a prompt (or piped in), each run on its own
in a transaction of its own, on a ledger that stays open between them."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import click

from ..domain.errors import BadInput
from ..ledger.application.addresses import must_exist
from ..ledger.application.connections import staying_up
from .batch import LONGEST_LINE, OWN_TRANSACTION, RunLine, line_runner
from .complete import line_completions, quoted
from .context import Env
from .options import common
from .output import error

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completion
    from prompt_toolkit.document import Document

LEAVE = frozenset({"exit", "quit"})
HISTORY = "shell_history"  # in the user's folder ($CHRONICLE_HOME)
PROMPT = "chronicle> "


@click.command()
@common
@click.pass_context
def shell(ctx: click.Context) -> None:
    """A prompt for the command lines `batch` takes, each recorded on its own: a failing line prints
    its error, writes nothing, and the prompt comes back. Tab completes commands, options, character
    and campaign names; history is kept between runs. `exit`, `quit` or Ctrl-D leaves. With standard
    input not a terminal, its lines are read the same way (an error names its line) and the exit
    status is 0 at their end.

    \b
    Example:
      chronicle --db table.db shell
    """
    env: Env = ctx.obj
    staying_up()  # its connections keep small page caches: a session at the table lasts hours
    _open(env)
    run_line = line_runner(ctx, env, inside="the shell")
    if sys.stdin.isatty():
        lines: Iterable[tuple[int | None, str]] = ((None, line) for line in _typed(ctx))
    else:
        lines = _piped(env)
    for number, line in lines:
        if line.strip() in LEAVE:
            break
        _run(env, run_line, line, number)


def _open(env: Env) -> None:
    """The ledger, opened now if it exists, so the first line costs no more than the others (an empty
    folder gets no database until a line writes); it stays open between lines, and is closed when the
    shell ends."""
    try:
        must_exist(env.db)
    except BadInput:
        return
    _ledger(env).check_witnessed()  # says, once, if the log no longer extends what this chronicle saw


def _ledger(env: Env) -> Any:
    """Each line reads in a session of its own and writes in a unit of its own (the application layer's
    retries and all), so it sees what other processes wrote meanwhile: no line's reading holds a
    transaction open for a write that may not come."""
    ledger = env.ledger
    ledger.writing = False
    return ledger


def _run(env: Env, run_line: RunLine, line: str, number: int | None) -> None:
    """One line, as `chronicle LINE` would run it; its failure printed as that would print it. Its own
    `--json` and `--campaign` last for that line only. After a failure the ledger is opened afresh for
    the next line: what the failure rolled back (read models' tables made in its transaction) is then
    not taken for there."""
    kept = env.json, env.campaign
    _ledger(env)
    failed = True
    try:
        run_line(line, number)
        failed = False
    except click.Abort:  # a prompt of the line's own (`winter --ask`) interrupted
        click.echo("Aborted; nothing of the line was written.", err=True)
    except KeyboardInterrupt:
        click.echo("Interrupted (what the line had not committed yet was rolled back).", err=True)
    except Exception as problem:
        code, message = described(problem)
        error(env.json, code, message)
    finally:
        env.json, env.campaign = kept
        if failed:
            env.close()


def described(problem: Exception) -> tuple[str, str]:
    """A failing line's error code and one-line message, as the program's own invocation gives them
    (ledger/application/failures.py): never a traceback."""
    if isinstance(problem, click.ClickException):
        return "usage", problem.format_message()
    from ..ledger.application.failures import failure

    said = failure(problem)
    return said.code, said.message


def _piped(env: Env) -> Iterator[tuple[int | None, str]]:
    """Standard input's lines, numbered; one that is too long or not UTF-8 is reported and skipped."""
    source = sys.stdin.buffer
    number = 0
    while raw := source.readline(LONGEST_LINE + 1):
        number += 1
        if len(raw) > LONGEST_LINE:
            while raw and not raw.endswith(b"\n"):  # the rest of the line, unread
                raw = source.readline(LONGEST_LINE)
            error(env.json, "bad_input", f"line {number} is longer than {LONGEST_LINE:,} bytes; it was skipped")
            continue
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            error(env.json, "bad_input", f"line {number} is not UTF-8 text; it was skipped")


def _typed(ctx: click.Context) -> Iterator[str]:
    """Lines typed at the prompt, with completion and the history kept in the user's folder, until
    Ctrl-D (Ctrl-C abandons the line being typed)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    from ..ledger.application.keys import folder

    session: PromptSession[str] = PromptSession(
        history=FileHistory(str(folder() / HISTORY)),
        completer=_completer(ctx),
        complete_while_typing=False,  # Tab asks, as in a shell: typing reads nothing from the ledger
    )
    click.echo("Type a command line (Tab completes); `exit` or Ctrl-D leaves.")
    while True:
        try:
            yield session.prompt(PROMPT)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return


def _completer(ctx: click.Context) -> Any:
    """prompt_toolkit's side of the shell completion (cli/complete.py): names with spaces are quoted;
    files and folders are offered from the disk."""
    from prompt_toolkit.completion import Completer, Completion, PathCompleter
    from prompt_toolkit.document import Document

    class Lines(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            start, items = line_completions(ctx, text, refused=OWN_TRANSACTION)
            word = text[start:]
            for item in items:
                if item.type in ("file", "dir"):  # Click leaves paths to the shell
                    if not word or quoted(word) == word:  # (typed without quotes)
                        paths = PathCompleter(only_directories=item.type == "dir", expanduser=True)
                        yield from paths.get_completions(Document(word), complete_event)
                    continue
                yield Completion(
                    quoted(item.value), start_position=-len(word), display=item.value, display_meta=item.help or ""
                )

    return Lines()
