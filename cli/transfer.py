"""`chronicle export` and `chronicle import`."""

from __future__ import annotations

import functools
from typing import BinaryIO

import click

from ..ledger.app import open_ledger
from ..ledger.transfer import export_lines, import_lines
from .context import Env
from .files import written
from .options import common
from .output import emit


@click.command("export")
@click.option("--output", "-o", default="-", metavar="FILE", help="Write to FILE instead of stdout.")
@common
@click.pass_obj
def export(env: Env, output: str) -> None:
    """The campaign's whole log as JSON Lines, one event a line, oldest first, and a closing line
    with their count and digest (`import` refuses a file without it: one cut short).

    FILE is written whole or not at all: an export that fails leaves an older FILE as it was.

    \b
    Example:
      chronicle export --campaign Glorantha --output glorantha.jsonl
    """
    with written(output) as sink:
        for line in export_lines(env.read()):
            sink.write(line + b"\n")


@click.command("import")
@click.argument("source", type=click.File("rb"), metavar="FILE")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    metavar="N",
    help="Processes checking the file side by side  [default: one per core on long files]",
)
@common
@click.pass_obj
def import_(env: Env, source: BinaryIO, workers: int | None) -> None:
    """Import an exported log (FILE or `-`): every outcome is re-checked first, and a file that does
    not verify is refused with nothing written.

    \b
    Example:
      chronicle --db copy.db import glorantha.jsonl
    """
    env.close()  # the import opens the ledger itself: not held while its workers are forked
    result = import_lines(functools.partial(open_ledger, env.db), source, workers)
    emit(env, result, f"imported {result['events']} events")
