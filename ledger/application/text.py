"""Text for people, as every front door shows a reply: sentences wrapped to a width, plain aligned
columns, and tables (rich, imported only when one is made). How wide and whether styled for a terminal
is the front door's to say (`Presentation`); the same reply reads the same through the CLI, the shell
and an assistant."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

WIDTH = 160  # columns of text made for no terminal (a file, another program)

Progress = Callable[[str, int], contextlib.AbstractContextManager[Callable[[float], None] | None]]


def _no_progress(label: str, total: int) -> contextlib.AbstractContextManager[Callable[[float], None] | None]:
    return contextlib.nullcontext(None)


@dataclass(frozen=True)
class Presentation:
    """How a front door shows text: `columns()` wide, styled for a terminal when `styled()` (each asked
    as a text is made: a shell's terminal may be resized between lines), and `progress(label, total)`,
    a context giving the function that advances a progress bar by a count done (None: no bar)."""

    columns: Callable[[], int] = lambda: WIDTH
    styled: Callable[[], bool] = lambda: False
    progress: Progress = _no_progress


class Exact(str):
    """Text shown as it is, never wrapped: a signed note or a key a person copies whole."""


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
    from ...domain.explain import words  # values in words: no reprs, no key=value, yes/no for flags

    return escape("" if value is None else words(value))


def rendered(renderable: Any, presentation: Presentation) -> str:
    """A rich renderable (or several: `Group`) as text, as wide and as styled as PRESENTATION says."""
    import io

    from rich.console import Console

    buffer = io.StringIO()
    Console(file=buffer, width=presentation.columns(), force_terminal=presentation.styled(), highlight=False).print(
        renderable
    )
    return buffer.getvalue().rstrip("\n")


def group(*parts: Any) -> Any:
    """Several renderables one after another (rich's `Group`)."""
    from rich.console import Group

    return Group(*parts)
