"""`chronicle export` and `chronicle import`."""

from __future__ import annotations

import os
import sys
from typing import BinaryIO

import click

from ..ledger.application.transfer import export as exported
from ..ledger.application.transfer import import_ as imported
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
    name, made = exported(env.ledger)
    lines = 0
    with written(output) as sink:
        for line in made:
            sink.write(line + b"\n")
            lines += 1
    if not _stdout(output):  # on stdout the export is the output: nothing may join its stream
        events = lines - 1  # (the last line closes the export)
        said = f"Wrote the {events:,} event{'' if events == 1 else 's'} of {name} to {output}."
        emit(env, {"campaign": name, "events": events, "output": output}, said)


def _stdout(target: str) -> bool:
    """Whether TARGET is stdout itself: `-`, or a name of it (/dev/stdout, or the file stdout goes to)."""
    if target == "-":
        return True
    try:
        named, out = os.stat(target), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # (no file descriptor: stdout is captured, not a file)
        return False
    return (named.st_dev, named.st_ino) == (out.st_dev, out.st_ino)


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
    result = imported(env.ledger, source, workers)
    emit(env, result, f"imported {result['events']} events")
