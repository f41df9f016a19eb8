"""`chronicle batch FILE`: many command lines in one process and one transaction, all or nothing."""

from __future__ import annotations

import contextlib
import gc
import io
import re
import shlex
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

import click

from ..domain.errors import BadInput, ChronicleError, Conflict, Refusal
from ..domain.text import check_arguments
from ..ledger.application import ledger as application
from ..ledger.application.ledger import backoff, lost_race
from ..ledger.bulk import workers as bulk
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

    env = ctx.obj
    run_line = _document_runner(env) if jsonl else line_runner(ctx, env)
    with _rereadable(source) as lines_of:
        for attempt in range(application.RETRIES):
            try:
                lines, recorded = _run(env, run_line, lines_of(), attempt >= application.PESSIMISTIC_FROM)
            except UnicodeDecodeError:
                raise BadInput("the batch file is not UTF-8 text; nothing of it was written") from None
            except Exception as problem:
                if not lost_race(problem):
                    raise
                backoff(attempt)  # another writer held the ledger: the whole file again, in a new transaction
                continue
            emit(env, {"lines": lines, "events": recorded}, f"{lines} lines, {recorded} events recorded")
            return
    raise Conflict(
        "other writers kept the ledger busy; nothing of the file was written after"
        f" {application.RETRIES} tries: run the batch again"
    )


FLUSH = 500  # lines: their decided events are inserted into the batch's open transaction, and let go
LONGEST_LINE = 1 << 20  # characters: a longer line (or a file with no line ends, /dev/zero) is bad input

RunLine = Callable[[str, int | None], bool]  # runs one line (of that number); False for a line with nothing to run


def _run(env: Any, run_line: RunLine, source: Iterable[str], immediate: bool) -> tuple[int, int]:
    """Run every line in one unit of work and one transaction, all or nothing: (lines, events).

    On SQLite the transaction is open from the start (ledger/store/chronicle.py's unit), and every FLUSH lines
    the events decided so far are inserted into it and folded into the index, so memory stays flat
    however long the file; the first failing line rolls all of it back. On PostgreSQL the session
    holds the events and saves them once, at the end."""
    ledger = env.ledger
    app = ledger.app
    flushing = app.has_units
    quiet, json = env.batch, env.json
    lines = recorded = 0
    with app.unit(immediate):
        session = env.session()
        ledger.batch_opened(session)  # a log rewritten behind this chronicle's back takes no batch either
        app.characters.catch_up()  # the rows stand right before the batch's events: it writes them at the end
        env.batch, env.json = session, True
        try:
            with bulk.paused_gc(), contextlib.redirect_stdout(_Discard()):  # emit prints nothing in a batch
                for number, line in enumerate(source, start=1):
                    if not run_line(line, number):
                        continue
                    lines += 1
                    if flushing and lines % FLUSH == 0:
                        recorded += _save(session)
                        session.catch_up()  # the index folds them from memory, in the batch's transaction
                        ledger.batch_saved(session)  # and the stored trees grow by them
                        gc.collect(0)  # the lines' own cycles (Click contexts, caught errors), if any
                recorded += _save(session)
                if recorded:
                    session.catch_up()  # the index folds the batch's events in its transaction
                    ledger.batch_saved(session)
                    session.write_rows()  # and the characters' rows are written as the batch left them
        finally:
            env.batch, env.json = quiet, json
    ledger.batch_committed()
    session.take_snapshots()
    return lines, recorded


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


def _save(session: Any) -> int:
    count = sum(len(a.pending_events) for a in session.pending())
    session.save()
    return count


# commands that open the ledger on their own (or another one) and commit by themselves, or read lines of
# their own: they cannot join a batch's one transaction (issue 25, item 2), nor run in the shell
OWN_TRANSACTION = {
    "import": "it commits on its own",
    "rebuild": "it replaces the read models on its own",
    "demo": "it records a tour of its own",
    "serve": "it serves until stopped",
    "batch": "it runs its lines in one transaction of its own",
    "shell": "it reads command lines of its own",
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
