"""`chronicle verify`: re-derive every outcome and check the hash chains."""

from __future__ import annotations

from typing import Any

import click

from .options import common
from .output import emit, table


@click.command()
@common
@click.pass_context
def verify(ctx: click.Context) -> None:
    """Re-derive every recorded outcome and check the log's tamper-evident hash chains.

    Exits 1 when anything does not match, naming the log position.

    \b
    Example:
      chronicle verify --json
    """
    from ..ledger.verify import verify as check

    env = ctx.obj
    session = env.read()
    total = session.app.index.count(session.campaign.id)
    with _progress(env, total) as advance:
        report = check(session, advance)
    emit(env, report, lambda: _human(report))
    if not report["ok"]:
        ctx.exit(1)


def _human(report: dict[str, Any]) -> Any:
    if report["ok"]:
        return f"ok: {report['events']} events re-derived and chained"
    return table(f"{len(report['problems'])} problem(s) in {report['events']} events", ("position", "problem"),
                 [(f"#{p['position']}", p["problem"]) for p in report["problems"]])


def _progress(env: Any, total: int) -> Any:
    """A progress bar on stderr for people on long logs; nothing with --json."""
    import contextlib

    if env.json or total < 2000:
        return contextlib.nullcontext(None)
    from rich.progress import Progress

    @contextlib.contextmanager
    def bar() -> Any:
        with Progress(transient=True, console=_stderr()) as progress:
            task = progress.add_task("verifying", total=total)
            yield lambda n: progress.advance(task, n)

    return bar()


def _stderr() -> Any:
    from rich.console import Console

    return Console(stderr=True)
