"""`chronicle rebuild`: drop read models and replay them from the log."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import click

from .options import common
from .output import emit

PROJECTIONS = ("index", "characters")
REBUILD_BATCH = 20000


@click.command()
@click.option("--projection", "names", type=click.Choice(PROJECTIONS), multiple=True,
              help="Only this read model (repeatable); default: all of them.")
@common
@click.pass_obj
def rebuild(env: Any, names: tuple[str, ...]) -> None:
    """Drop the read models and replay them from the whole log (every campaign in the database).

    The result is the same as the one kept up to date command by command.

    \b
    Example:
      chronicle rebuild --projection characters
    """
    app = env.app
    total = app.recorder.max_notification_id() or 0
    counts = {}
    for name in names or PROJECTIONS:
        projection = getattr(app, name)
        projection.reset()
        with _progress(env, f"rebuilding {name}", total) as advance:
            counts[name] = projection.catch_up(advance, batch_size=REBUILD_BATCH)
    emit(env, {"projections": counts},
         "\n".join(f"{name}: {count} events replayed" for name, count in counts.items()))


def _progress(env: Any, label: str, total: int) -> contextlib.AbstractContextManager[Callable[[int], None] | None]:
    """A rich progress bar on stderr for people; nothing with --json."""
    if env.json or not total:
        return contextlib.nullcontext(None)

    @contextlib.contextmanager
    def bar() -> Iterator[Callable[[int], None]]:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(transient=True, console=Console(stderr=True)) as progress:
            task = progress.add_task(label, total=total)
            yield lambda n: progress.advance(task, n)

    return bar()
