"""Rendering: one JSON document with --json, text for people otherwise: long text through a pager on a
terminal, as wide as the terminal (or `$COLUMNS` when piped)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import click
import orjson

PIPED_WIDTH = 160  # piped with no $COLUMNS and no terminal anywhere: a file or another program reads it


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


class Exact(str):
    """Human output printed as it is, never wrapped: a signed note or key a person copies whole."""


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


def rendered(renderable: Any) -> str:
    """A rich renderable as text at `width()` (styled only for a terminal)."""
    import io

    from rich.console import Console

    buffer = io.StringIO()
    Console(file=buffer, width=width(), force_terminal=on_terminal(), highlight=False).print(renderable)
    return buffer.getvalue().rstrip("\n")


def console() -> Any:
    from rich.console import Console

    return Console(file=sys.stdout, width=width())


def wrapped(text: str, indent: int, columns: int) -> list[str]:
    """TEXT in lines of at most `columns` characters (a longer word stands alone), each after `indent` spaces."""
    room = max(columns - indent, 20)
    pad = " " * indent
    if len(text) <= room:
        return [pad + text]
    lines, line = [], ""
    for word in text.split():
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= room:
            line += " " + word
        else:
            lines.append(pad + line)
            line = word
    if line:
        lines.append(pad + line)
    return lines


def stories(rows: Iterable[dict[str, Any]], columns: int, campaign: str = "", who: bool = True) -> str:
    """Events as people read them: a heading (position, local time, author, character) over the event's
    sentences. Plain text, so thousands of events cost little more than their JSON."""
    out: list[str] = []
    for row in rows:
        heading = f"#{row['position']:<6} {row['local_time']}  by {row['by']}"
        if who:
            heading += f"  {row['character'] or campaign or 'the campaign'}"
        out.append(heading)
        out.extend(wrapped(row["summary"], 8, columns))
    return "\n".join(out)


def aligned(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """Rows in plain aligned columns under their headers (a short listing needs no table library)."""
    grid = [list(headers), *([str(cell) for cell in row] for row in rows)]
    widths = [max(len(row[i]) for row in grid) for i in range(len(headers))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in grid]
    return "\n".join([lines[0], "  ".join("-" * width for width in widths), *lines[1:]])


def table(title: str | None, columns: Sequence[str], rows: Iterable[Sequence[Any]], header: bool = True) -> Any:
    from rich.table import Table

    grid = Table(title=title, show_header=header, header_style="bold")
    for column in columns:
        grid.add_column(column)
    for row in rows:
        grid.add_row(*(_cell(v) for v in row))
    return grid


def fields(title: str | None, mapping: dict[str, Any]) -> Any:
    return table(title, ("", ""), [(k.replace("_", " "), v) for k, v in mapping.items()], header=False)


def _cell(value: Any) -> str:
    from rich.markup import escape

    if isinstance(value, str):
        return escape(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    from ..domain.explain import words  # values in words: no reprs, no key=value, yes/no for flags

    return escape("" if value is None else words(value))


def error(env_json: bool, code: str, message: str) -> None:
    from ..domain.text import safe_line

    message = safe_line(message)  # a typed name may hold a terminal escape sequence: never echoed raw
    if env_json:
        click.echo(orjson.dumps({"error": {"code": code, "message": message}}).decode(), err=True)
    else:
        click.echo(f"Error: {message}", err=True)
