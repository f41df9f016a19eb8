"""`chronicle export` and `chronicle import`."""

from __future__ import annotations

from typing import Any, BinaryIO

import click

from .options import common
from .output import emit


@click.command("export")
@click.option("--output", "-o", type=click.File("wb"), default="-", help="Write to FILE instead of stdout.")
@common
@click.pass_obj
def export(env: Any, output: BinaryIO) -> None:
    """The campaign's whole log as JSON Lines, one event a line, oldest first.

    \b
    Example:
      chronicle export --campaign Glorantha --output glorantha.jsonl
    """
    from ..ledger.transfer import export_lines

    for line in export_lines(env.read()):
        output.write(line + b"\n")


@click.command("import")
@click.argument("source", type=click.File("rb"), metavar="FILE")
@common
@click.pass_obj
def import_(env: Any, source: BinaryIO) -> None:
    """Import an exported log (FILE or `-`): every outcome is re-checked first, and a file that does
    not verify is refused with nothing written.

    \b
    Example:
      chronicle --db copy.db import glorantha.jsonl
    """
    from ..ledger.transfer import import_lines

    result = import_lines(env.app, source)
    emit(env, result, f"imported {result['events']} events")
