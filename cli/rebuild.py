"""`chronicle rebuild`: drop read models and replay them from the log."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator

import click

from ..ledger.application.rebuild import PROJECTIONS
from ..ledger.application.rebuild import rebuild as replay
from .context import Env
from .options import common
from .output import emit


@click.command()
@click.option(
    "--projection",
    "names",
    type=click.Choice(PROJECTIONS),
    multiple=True,
    help="Only this read model (repeatable); default: all of them.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    metavar="N",
    help="Processes folding the log side by side  [default: one per core on long logs]",
)
@common
@click.pass_obj
def rebuild(env: Env, names: tuple[str, ...], workers: int | None) -> None:
    """Replay the read models from the whole log (every campaign in the database) into fresh
    tables, and put them in place of the old ones, which stay readable until then.

    The result is the same as the one kept up to date command by command. With the index, the
    sentences `log` kept of each event go too: it tells those events from the events themselves.

    \b
    Example:
      chronicle rebuild --projection characters
    """
    names = names or PROJECTIONS
    with _progress(env, f"rebuilding {', '.join(names)}") as start:
        counts = replay(env.ledger, names, workers, start)
    emit(env, {"projections": counts}, "\n".join(f"{name}: {count} events replayed" for name, count in counts.items()))


@contextlib.contextmanager
def _progress(env: Env, label: str) -> Iterator[Callable[[int], Callable[[float], None]] | None]:
    """For people, a rich progress bar on stderr: `start(total)` gives the function that advances
    it. Nothing with --json."""
    if env.json:
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(transient=True, console=Console(stderr=True)) as progress:
        yield lambda total: functools.partial(progress.advance, progress.add_task(label, total=total))
