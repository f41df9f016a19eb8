"""`chronicle batch FILE`: many command lines in one process and one transaction, all or nothing."""

from __future__ import annotations

import contextlib
import copy
import functools
import gc
import importlib.metadata
import io
import re
import shlex
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from gettext import ngettext
from typing import Any, TextIO

import click

from ..domain.errors import BadInput, ChronicleError, Conflict, Refusal
from ..ledger import application, bulk
from ..ledger.application import backoff, lost_race
from .options import common
from .output import emit


@click.command()
@click.argument("source", type=click.File("r", encoding="utf-8"), metavar="FILE")
@common
@click.pass_context
def batch(ctx: click.Context, source: TextIO) -> None:
    """Run FILE (`-` for stdin): one command line a line, without the program name or global
    options; blank lines and `#` comments are skipped. On the first failing line nothing of the
    file is written, and the exit status is that line's.

    \b
    Example:
      printf 'character add Vasana --stat siz=15\\nroll d20 --for Vasana\\n' | chronicle batch -
    """

    env = ctx.obj
    root = _Reusing(ctx.find_root().command)
    with _rereadable(source) as lines_of:
        for attempt in range(application.RETRIES):
            try:
                lines, recorded = _run(ctx, root, env, lines_of(), attempt >= application.PESSIMISTIC_FROM)
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


def _run(ctx: click.Context, root: _Reusing, env: Any, source: Iterable[str], immediate: bool) -> tuple[int, int]:
    """Run every line in one unit of work and one transaction, all or nothing: (lines, events).

    On SQLite the transaction is open from the start (ledger/app.py's unit), and every FLUSH lines
    the events decided so far are inserted into it and folded into the index, so memory stays flat
    however long the file;
    the first failing line rolls all of it back. On PostgreSQL the session holds the events and
    saves them once, at the end."""
    ledger = env.ledger
    app = ledger.app
    flushing = app.has_units
    quiet, json = env.batch, env.json
    lines = recorded = 0
    with app.unit(immediate):
        session = env.session()
        app.characters.catch_up()  # the rows stand right before the batch's events: it writes them at the end
        env.batch, env.json = session, True
        try:
            with bulk.paused_gc(), contextlib.redirect_stdout(_Discard()):  # emit prints nothing in a batch
                for number, line in enumerate(source, start=1):
                    args = _split(line, number)
                    if not args:
                        continue
                    lines += 1
                    _run_line(ctx, root, env, args, number)
                    if flushing and lines % FLUSH == 0:
                        recorded += _save(session)
                        session.catch_up()  # the index folds them from memory, in the batch's transaction
                        gc.collect(0)  # the lines' own cycles (Click contexts, caught errors), if any
                recorded += _save(session)
                if recorded:
                    session.catch_up()  # the index folds the batch's events in its transaction
                    session.write_rows()  # and the characters' rows are written as the batch left them
        finally:
            env.batch, env.json = quiet, json
    session.take_snapshots()
    return lines, recorded


def _save(session: Any) -> int:
    count = sum(len(a.pending_events) for a in session.pending())
    session.save()
    return count


# commands that open the ledger on their own (or another one) and commit by themselves: they cannot
# join a batch's one transaction (issue 25, item 2)
OWN_TRANSACTION = {
    "import": "it commits on its own",
    "rebuild": "it replaces the read models on its own",
    "demo": "it records a tour of its own",
    "serve": "it serves until stopped",
}


@contextlib.contextmanager
def _rereadable(source: TextIO) -> Iterator[Callable[[], Iterable[str]]]:
    """The file's lines, readable again for a retry: stdin (or a pipe) is first copied to a
    temporary file (on disk: a long batch from stdin stays out of memory)."""
    if source.seekable():

        def again() -> Iterable[str]:
            source.seek(0)
            return source

        yield again
        return
    with tempfile.TemporaryFile("w+", encoding="utf-8") as copy:
        try:
            shutil.copyfileobj(source, copy)
        except UnicodeDecodeError:
            raise BadInput("the batch file is not UTF-8 text; nothing of it was written") from None

        def reread() -> Iterable[str]:
            copy.seek(0)
            return copy

        yield reread


# What only shlex splits right: quotes, escapes, comments, and the whitespace `str.split` splits at but
# shlex does not (shlex's is " \t\r\n"); a line without any is shlex's words by `str.split`.
SHELL_SYNTAX = re.compile(r"[\"'\\#\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _split(line: str, number: int) -> list[str]:
    text = line.strip()
    if not text or text[0] == "#":
        return []
    if not SHELL_SYNTAX.search(text):
        return text.split()
    try:
        return shlex.split(text, comments=True)
    except ValueError as error:
        raise BadInput(f"line {number}: {error}") from None


def _run_line(ctx: click.Context, root: Any, env: Any, args: list[str], number: int) -> None:
    name = args[0]
    if name in OWN_TRANSACTION:
        raise BadInput(f"line {number}: {name} cannot run inside a batch ({OWN_TRANSACTION[name]}): run it on its own")
    command = root.command(ctx, name)
    if command is None or name == "batch":
        raise BadInput(f"line {number}: no such command {name!r}")
    try:
        pick = getattr(command, "pick", None)  # injure, rest, attack: the campaign's system's command
        if pick is not None and args[1:2] not in (["-h"], ["--help"]):  # (help may need no ledger: theirs)
            command = root.reused(pick(env))
        with command.make_context(name, args[1:], parent=ctx, obj=env) as sub:
            command.invoke(sub)
    except ChronicleError as problem:
        problem.args = (f"line {number}: {problem}",)
        raise
    except click.exceptions.Exit as done:
        if done.exit_code:
            raise _failure(number, done.exit_code, f"{name} failed") from None
    except click.ClickException as problem:
        raise _failure(number, problem.exit_code, problem.format_message()) from None


class _Reusing:
    """A batch's commands, each a copy that builds Click's option parser and parameter list at its
    first line and reuses them (Click builds both again at every `make_context`, and a batch runs the
    same few commands thousands of times). Both depend only on the command and on context settings
    that are the same at every line of a batch; Click's own `parse_args` still parses each line, with
    the parser's `ctx` (what its errors name) the line's own. A group's subcommands are reused too."""

    def __init__(self, root: click.Group):
        self.root = root
        self.copies: dict[click.Command, click.Command] = {}
        self.named: dict[str, click.Command | None] = {}

    def command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.named:  # (the root's lookup imports and wires the command's module each time)
            found = self.root.get_command(ctx, name)
            self.named[name] = None if found is None else self.reused(found)
        return self.named[name]

    def reused(self, command: click.Command) -> click.Command:
        found = self.copies.get(command)
        if found is None:
            found = self.copies[command] = copy.copy(command)
            found.__class__ = _reusing_class(type(command))
            found._batch = self  # type: ignore[attr-defined]
            found._orders, found._absent, found._plain = {}, {}, {}  # type: ignore[attr-defined]
        return found


# The Clicks whose `Command.parse_args` and `Parameter.handle_parse_result` `_parse_args` follows (8.5
# records a parameter's source before processing its value, as `_parse_args` does); with another, a batch
# parses with Click's own, a third as fast (tests/cli/test_batch.py holds the installed one to this list).
MIRRORED_CLICKS = ("8.4.", "8.5.")
_MIRRORED = importlib.metadata.version("click").startswith(MIRRORED_CLICKS)
_DEFAULT = click.core.ParameterSource.DEFAULT
_COMMANDLINE = click.core.ParameterSource.COMMANDLINE
_UNKNOWN = object()


@functools.cache
def _reusing_class(base: type[click.Command]) -> type[click.Command]:
    before = getattr(base, "before_parse", None)  # a command whose `parse_args` only rewrites the words first

    class Reused(base):  # type: ignore[valid-type, misc]
        _params: list[click.Parameter] | None = None
        _parser: Any = None

        def get_params(self, ctx: click.Context) -> list[click.Parameter]:
            if self._params is None:
                self._params = super().get_params(ctx)
            return self._params

        def make_parser(self, ctx: click.Context) -> Any:
            if self._parser is None:
                self._parser = super().make_parser(ctx)
            self._parser.ctx = ctx  # the parser keeps no other state between parses
            return self._parser

        if _MIRRORED and (base.parse_args is click.Command.parse_args or before is not None):

            def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
                if ctx.default_map is not None or ctx.auto_envvar_prefix is not None or ctx.resilient_parsing:
                    return super().parse_args(ctx, args)
                return _parse_args(self, ctx, before(self, ctx, args) if before is not None else args)

        if issubclass(base, click.Group):

            def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
                found = super().get_command(ctx, name)
                return None if found is None else self._batch.reused(found)

    Reused.__name__, Reused.__qualname__ = base.__name__, base.__qualname__
    return Reused


def _parse_args(command: Any, ctx: click.Context, args: list[str]) -> list[str]:
    """Click's `Command.parse_args`, less what it redoes at every line though a batch's context never
    changes it (no default map, no automatic environment variables, no resilient parsing): the order
    its parameters are processed in is sorted once per order the options come in, and an option absent
    from the line takes what Click's `consume_value` gave it at the first such line (its default), still
    processed by Click's own `process_value` (type, required check, callback) unless that is a constant
    too (nothing consumed, no callback: what Click's code returns then depends on the parameter alone)."""
    if not args and command.no_args_is_help:
        raise click.exceptions.NoArgsIsHelpError(ctx)
    parser = command.make_parser(ctx)
    opts, args, param_order = parser.parse_args(args=args)
    key = tuple(param_order)
    order = command._orders.get(key)
    if order is None:
        order = command._orders[key] = click.core.iter_params_for_processing(param_order, command.get_params(ctx))
    params, sources = ctx.params, ctx._parameter_source
    for param in order:
        name = param.name
        if name in params or name in sources:  # a slot several parameters share: Click arbitrates
            _, args = param.handle_parse_result(ctx, opts, args)
            continue
        if name in opts:
            given = opts[name]
            if given is click.core.UNSET or not _plain(command, param):  # (an argument missing is UNSET)
                _, args = param.handle_parse_result(ctx, opts, args)
                continue
            # a plain parameter's one value from the line: what Click's handle_parse_result makes of it
            try:
                value = param.type(given, param, ctx)
            except click.UsageError as problem:
                raise _where(problem, ctx, param) from None
            sources[name] = _COMMANDLINE
            params[name] = value
            ctx._param_default_explicit[name] = param._default_explicit
            continue
        absent = _absent(command, ctx, param)
        if absent is None:
            _, args = param.handle_parse_result(ctx, opts, args)
            continue
        consumed, value = absent
        sources[name] = _DEFAULT  # before processing: a callback may ask for it (Click 8.5)
        if value is _UNKNOWN:
            try:
                value = param.process_value(ctx, consumed)
            except click.UsageError as problem:
                raise _where(problem, ctx, param) from None
        if param.expose_value:
            params[name] = value
            ctx._param_default_explicit[name] = param._default_explicit
    for name, value in params.items():
        if value is click.core.UNSET:
            params[name] = None
    if args and not ctx.allow_extra_args:
        ctx.fail(
            ngettext(
                "Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", len(args)
            ).format(args=" ".join(map(str, args)))
        )
    ctx.args = args
    ctx._opt_prefixes.update(parser._opt_prefixes)
    return args


def _where(problem: click.UsageError, ctx: click.Context, param: click.Parameter) -> click.UsageError:
    """The error as Click's `augment_usage_errors` leaves it: with the line's context and the parameter."""
    if problem.ctx is None:
        problem.ctx = ctx
    if isinstance(problem, click.BadParameter) and problem.param is None:
        problem.param = param
    return problem


def _plain(command: Any, param: click.Parameter) -> bool:
    """Whether Click makes of a value the line gives `param` just its type's conversion: one value, no
    flag, no callback, no prompt, no deprecation (its `consume_value` returns it as given, its
    `process_value` converts it, and a converted value is never missing)."""
    known = command._plain.get(param)
    if known is None:
        option = type(param) is click.Option
        known = command._plain[param] = (
            (option or type(param) is click.Argument)
            and param.nargs == 1
            and not param.multiple
            and param.callback is None
            and not param.deprecated
            and not (option and (param.is_flag or param.count or param.prompt is not None))  # type: ignore[attr-defined]
        )
    return known


def _absent(command: Any, ctx: click.Context, param: click.Parameter) -> tuple[Any, Any] | None:
    """`(consumed, processed)`: what Click's `consume_value` gives `param` when the line does not set it,
    if that is the same at every line (a plain option without environment variable, prompt or callable
    default), and what its `process_value` makes of that if also the same (else `_UNKNOWN`)."""
    known = command._absent.get(param, _UNKNOWN)
    if known is _UNKNOWN:
        known = None
        if (
            type(param) is click.Option
            and not param.envvar
            and param.prompt is None
            and not callable(param.get_default(ctx, call=False))
        ):
            consumed, source = param.consume_value(ctx, {})
            if source is _DEFAULT:
                constant = (
                    (consumed is click.core.UNSET or (type(consumed) in PLAIN and type(param.type) in PLAIN_TYPES))
                    and not param.required
                    and (param.callback is None or _inert(command, ctx, param, consumed))
                )
                known = (consumed, param.process_value(ctx, consumed) if constant else _UNKNOWN)
        command._absent[param] = known
    return known


# defaults whose conversion by these types is the same at every line (a string, a number, a flag's bool)
PLAIN = (str, int, bool)
PLAIN_TYPES = (click.types.StringParamType, click.types.IntParamType, click.types.BoolParamType)


def _inert(command: Any, ctx: click.Context, param: click.Parameter, value: Any) -> bool:
    """Whether `param`'s callback does nothing with `value` and its result is kept nowhere: Click's help
    option when not given, and the options marked `inert_when_absent` (cli/options.py) when absent."""
    if param.expose_value:
        return False
    if param is command.get_help_option(ctx):
        return value is False  # Click's `show_help` returns at once unless the option was given
    absent = value is click.core.UNSET or not value
    return bool(getattr(param.callback, "inert_when_absent", False)) and absent


class _Discard(io.TextIOBase):
    def write(self, text: str) -> int:
        return len(text)


def _failure(number: int, code: int, message: str) -> Exception:
    kind = Refusal if code == 1 else BadInput
    return kind(f"line {number}: {message}")
