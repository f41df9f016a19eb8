"""Rendering: one JSON document with --json, text for people otherwise: long text through a pager on a
terminal, as wide as the terminal (or `$COLUMNS` when piped)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click
import orjson

from ..ledger.application.text import WIDTH, Exact, Presentation, aligned, fields, stories, table, wrapped
from ..ledger.application.text import rendered as rendered_as

__all__ = ["Exact", "aligned", "emit", "error", "fields", "presentation", "rendered", "stories", "table", "wrapped"]

PIPED_WIDTH = WIDTH  # piped with no $COLUMNS and no terminal anywhere: a file or another program reads it


def emit(env: Any, data: Any, human: Any = None) -> None:
    """Print `data` (a JSON-able value, or a callable producing it) as the command's one JSON document,
    or `human` (a renderable, a string or a callable producing either) for people. Inside a batch,
    nothing: its lines' output is not shown, so a callable is never called there."""
    if env.batch is not None:
        return
    if callable(data):
        data = data()
    if env.json:
        click.echo(orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS, default=str).decode())
        return
    if callable(human):
        human = human()
    if human is None:
        human = data
    show(human if isinstance(human, str) else rendered(human))


def show(text: str) -> None:
    """TEXT on stdout; on a terminal fitted to its width (`fitted`), and through the pager ($PAGER, else
    less) when it overflows the terminal's height. Piped, as it is: a file or program reads it."""
    if on_terminal() and not isinstance(text, Exact):
        text = fitted(text, width())
    if on_terminal() and text.count("\n") + 1 >= shutil.get_terminal_size().lines:
        click.echo_via_pager(text)
    else:
        click.echo(text)


def fitted(text: str, columns: int) -> str:
    """TEXT with each line longer than `columns` broken at its spaces, never inside a word (a longer word
    stands alone), the continuation lines indented as the line itself is; spacing inside a line kept."""
    import textwrap

    lines = []
    for line in text.split("\n"):
        if len(line) <= columns:
            lines.append(line)
            continue
        pad = line[: len(line) - len(line.lstrip(" "))]
        lines += textwrap.wrap(
            line[len(pad) :],
            width=max(columns, len(pad) + 20),
            initial_indent=pad,
            subsequent_indent=pad,
            break_long_words=False,
            break_on_hyphens=False,
            replace_whitespace=False,
        ) or [line]
    return "\n".join(lines)


def on_terminal() -> bool:
    return sys.stdout.isatty()


def width() -> int:
    """The terminal's columns; when stdout is piped, `$COLUMNS`, else the terminal the user types at
    (stderr's), else PIPED_WIDTH."""
    streams = [sys.stdout] if on_terminal() else []
    columns = os.environ.get("COLUMNS", "")
    if not streams and columns.isdigit() and int(columns) > 0:
        return int(columns)
    for stream in [*streams, sys.stderr]:
        try:
            columns_seen = os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            continue
        if columns_seen > 0:  # a pseudo-terminal nobody sized says 0: not a width
            return max(columns_seen, 20)
    return PIPED_WIDTH


def presentation(quiet: Callable[[], bool] = lambda: False) -> Presentation:
    """Text as this process shows it: as wide as `width()`, styled on a terminal, with a progress bar on
    stderr for people unless `quiet()` (--json: stderr is for errors only)."""

    def shown(label: str, total: int) -> contextlib.AbstractContextManager[Callable[[float], None] | None]:
        return contextlib.nullcontext(None) if quiet() else progress(label, total)

    return Presentation(width, on_terminal, shown)


def rendered(renderable: Any) -> str:
    """A rich renderable as text at `width()` (styled only for a terminal)."""
    return rendered_as(renderable, presentation())


@contextlib.contextmanager
def progress(label: str, total: int) -> Iterator[Callable[[float], None]]:
    """A progress bar on stderr, gone when done: the block is given the function advancing it."""
    from rich.console import Console
    from rich.progress import Progress

    with Progress(transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.advance(task, done)


def console() -> Any:
    from rich.console import Console

    return Console(file=sys.stdout, width=width())


def error(env_json: bool, code: str, message: str) -> None:
    from ..domain.text import safe_line

    message = safe_line(message)  # a typed name may hold a terminal escape sequence: never echoed raw
    if env_json:
        click.echo(orjson.dumps({"error": {"code": code, "message": message}}).decode(), err=True)
    else:
        click.echo(f"Error: {message}", err=True)
