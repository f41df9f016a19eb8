"""`chronicle batch FILE`: many command lines in one process and one transaction, all or nothing."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

import click

from ..domain.errors import BadInput, ChronicleError, Refusal
from ..domain.text import check_arguments
from .options import common
from .output import emit


@click.command()
@click.argument("source", type=click.File("r", encoding="utf-8"), metavar="FILE")
@click.option("--jsonl", is_flag=True, help="FILE holds one command document (a JSON object) a line.")
@common
@click.pass_context
def batch(ctx: click.Context, source: TextIO, jsonl: bool) -> None:
    """Run FILE (`-` for stdin): one command line a line, without the program name or global
    options; blank lines and `#` comments are skipped. With --jsonl, one command document a line
    (`chronicle commands --json` lists them). On the first failing line nothing of the file is
    written, and the exit status is that line's.

    \b
    Examples:
      printf 'character add Vasana --stat siz=15\\nroll d20 --for Vasana\\n' | chronicle batch -
      echo '{"command": "roll", "notation": "d20"}' | chronicle batch --jsonl -
    """

    from ..ledger.application.batch import run_batch

    env = ctx.obj
    run_line = _document_runner(env) if jsonl else line_runner(ctx, env)
    with _rereadable(source) as lines_of, _quiet(env):
        numbered = lambda: enumerate(lines_of(), start=1)  # noqa: E731  (read again for a retry)
        try:
            lines, recorded = run_batch(env.ledger, numbered, lambda item: run_line(item[1], item[0]))
        except UnicodeDecodeError:
            raise BadInput("the batch file is not UTF-8 text; nothing of it was written") from None
    emit(env, {"lines": lines, "events": recorded}, f"{lines} lines, {recorded} events recorded")


RunLine = Callable[[str, int | None], bool]  # runs one line (of that number); False for a line with nothing to run
LONGEST_LINE = 1 << 20  # characters: a longer line (or a file with no line ends, /dev/zero) is bad input


@contextlib.contextmanager
def _quiet(env: Any) -> Iterator[None]:
    """While a batch runs, its lines print nothing (emit prints nothing inside a batch, and anything else
    a line would print goes nowhere) and read as --json does (each event's fields, no progress bars)."""
    json = env.json
    env.json = True
    try:
        with contextlib.redirect_stdout(_Discard()):
            yield
    finally:
        env.json = json


def line_runner(ctx: click.Context, env: Any, inside: str = "a batch") -> RunLine:
    """Each line parsed by Click as `chronicle LINE` would be (its public `make_context`), under the
    global options of CTX's invocation; a command is looked up once. What a line writes joins the
    batch's unit of work when a batch runs (`env.batch`), else it is a unit of its own (`shell`).
    A line's error names its number, unless that is None."""
    root = ctx.find_root().command
    assert isinstance(root, click.Group)
    found: dict[str, click.Command | None] = {}

    def run_line(line: str, number: int | None) -> bool:
        args = _split(line, number)
        if not args:
            return False
        name = args[0]
        if name in OWN_TRANSACTION:
            raise BadInput(
                f"{_where(number)}{name} cannot run inside {inside} ({OWN_TRANSACTION[name]}): run it on its own"
            )
        if name not in found:
            found[name] = root.get_command(ctx, name)
        command = found[name]
        if command is None:
            raise BadInput(f"{_where(number)}no such command {name!r}")
        with _numbered(number):
            check_arguments(args)  # as the command line's arguments are (cli/main.py): 64 bits, UTF-8, NUL
            try:
                pick = getattr(command, "pick", None)  # injure, rest, attack: the campaign's system's command
                if pick is not None and args[1:2] not in (["-h"], ["--help"]):  # (help may need no ledger)
                    command = pick(env)
                with command.make_context(name, args[1:], parent=ctx, obj=env) as sub:
                    command.invoke(sub)
            except click.exceptions.Exit as done:
                if done.exit_code:
                    raise _failure(done.exit_code, f"{name} failed") from None
            except click.ClickException as problem:
                raise _failure(problem.exit_code, problem.format_message()) from None
        return True

    return run_line


def _document_runner(env: Any) -> RunLine:
    """Each line a command document, run by the application layer as any front door runs one."""
    import orjson

    def run_line(line: str, number: int | None) -> bool:
        if not line.strip():
            return False
        with _numbered(number):
            try:
                document = orjson.loads(line)
            except orjson.JSONDecodeError as error:
                raise BadInput(f"not a JSON document: {str(error).split(':')[0]}") from None
            env.ledger.execute_document(document)
        return True

    return run_line


@contextlib.contextmanager
def _numbered(number: int | None) -> Iterator[None]:
    """A line's error, named by its line number (if it has one)."""
    try:
        yield
    except ChronicleError as problem:
        problem.args = (f"{_where(number)}{problem}",)
        raise


def _where(number: int | None) -> str:
    return "" if number is None else f"line {number}: "


# commands that open the ledger on their own (or another one) and commit by themselves, or read lines of
# their own: they cannot join a batch's one transaction, nor run in the shell
OWN_TRANSACTION = {
    "import": "it commits on its own",
    "rebuild": "it replaces the read models on its own",
    "demo": "it records a tour of its own",
    "serve": "it serves until stopped",
    "batch": "it runs its lines in one transaction of its own",
    "shell": "it reads command lines of its own",
    "mcp": "it serves an assistant on standard input and output until they close",
}


@contextlib.contextmanager
def _rereadable(source: TextIO) -> Iterator[Callable[[], Iterable[str]]]:
    """The file's lines, readable again for a retry: stdin (or a pipe) is first copied to a
    temporary file (on disk: a long batch from stdin stays out of memory)."""
    if source.seekable():

        def again() -> Iterable[str]:
            source.seek(0)
            return bounded(source)

        yield again
        return
    with tempfile.TemporaryFile("w+", encoding="utf-8") as copy:
        try:
            copy.writelines(bounded(source))
        except UnicodeDecodeError:
            raise BadInput("the batch file is not UTF-8 text; nothing of it was written") from None

        def reread() -> Iterable[str]:
            copy.seek(0)
            return copy

        yield reread


def bounded(source: TextIO) -> Iterator[str]:
    """The lines of SOURCE, each at most LONGEST_LINE characters: a longer one is bad input, so a
    file with no line ends (`/dev/zero`) is refused rather than read into memory."""
    number = 0
    while line := source.readline(LONGEST_LINE + 1):
        number += 1
        if len(line) > LONGEST_LINE:
            raise BadInput(f"line {number} is longer than {LONGEST_LINE:,} characters; nothing was written")
        yield line


# What only shlex splits right: quotes, escapes, comments, and the whitespace `str.split` splits at but
# shlex does not (shlex's is " \t\r\n"); a line without any is shlex's words by `str.split`.
SHELL_SYNTAX = re.compile(r"[\"'\\#\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _split(line: str, number: int | None) -> list[str]:
    text = line.strip()
    if not text or text[0] == "#":
        return []
    if not SHELL_SYNTAX.search(text):
        return text.split()
    try:
        return shlex.split(text, comments=True)
    except ValueError as error:
        raise BadInput(f"{_where(number)}{error}") from None


class _Discard(io.TextIOBase):
    def write(self, text: str) -> int:
        return len(text)


def _failure(code: int, message: str) -> Exception:
    kind = Refusal if code == 1 else BadInput
    return kind(message)
