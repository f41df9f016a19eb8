"""Rendering: one JSON document with --json, rich tables for people otherwise."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any

import click
import orjson


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
    if isinstance(human, str):
        click.echo(human)
    else:
        console().print(human)


def console() -> Any:
    from rich.console import Console

    return Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160)


def table(title: str | None, columns: Sequence[str], rows: Iterable[Sequence[Any]], header: bool = True) -> Any:
    from rich.table import Table

    grid = Table(title=title, show_header=header, header_style="bold")
    for column in columns:
        grid.add_column(column)
    for row in rows:
        grid.add_row(*(_cell(v) for v in row))
    return grid


def fields(title: str | None, mapping: dict[str, Any]) -> Any:
    return table(title, ("", ""), [(k, v) for k, v in mapping.items()], header=False)


def _cell(value: Any) -> str:
    from rich.markup import escape

    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value)
    elif isinstance(value, dict):
        value = ", ".join(f"{k}={v}" for k, v in value.items())
    return escape("" if value is None else str(value))


def error(env_json: bool, code: str, message: str) -> None:
    from ..domain.text import safe_line

    message = safe_line(message)  # a typed name may hold a terminal escape sequence: never echoed raw
    if env_json:
        click.echo(orjson.dumps({"error": {"code": code, "message": message}}).decode(), err=True)
    else:
        click.echo(f"Error: {message}", err=True)
