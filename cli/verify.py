"""`chronicle verify`: re-derive every outcome and check the hash chains."""

from __future__ import annotations

import functools
from typing import Any

import click

from .options import common
from .output import emit, table


@click.command()
@click.option("--workers", type=click.IntRange(1, 64), metavar="N",
              help="Processes checking the log side by side  [default: one per core on long logs]")
@common
@click.pass_context
def verify(ctx: click.Context, workers: int | None) -> None:
    """Re-derive every recorded outcome and check the log's tamper-evident hash chains.

    Exits 1 when anything does not match, naming the log position.

    \b
    Example:
      chronicle verify --json
    """
    from ..ledger import bulk
    from ..ledger.verify import PARALLEL_FROM, verify as check, verify_side_by_side

    env = ctx.obj
    session = env.read()
    session.app.index.catch_up()
    campaign_id = session.campaign.id
    total = session.app.index.count(campaign_id)
    shares = 1 if env.batch is not None else workers or bulk.workers(total, PARALLEL_FROM)
    with _progress(env, total) as advance:
        if shares == 1:
            report = check(session, advance)
        else:
            from ..ledger.app import open_ledger

            env.close()  # no connection is held while the workers are forked: each opens its own
            report = verify_side_by_side(functools.partial(open_ledger, env.db), campaign_id, shares, advance)
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
