"""`chronicle verify`: re-derive every outcome and check the hash chains."""

from __future__ import annotations

import functools
from typing import Any

import click

from ..ledger import bulk
from ..ledger.app import open_ledger
from ..ledger.digest import Against, parse
from ..ledger.transfer import export_heads
from ..ledger.verify import PARALLEL_FROM, verify_side_by_side
from ..ledger.verify import verify as check
from .context import Env
from .options import common
from .output import emit, table


@click.command()
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    metavar="N",
    help="Processes checking the log side by side  [default: one per core on long logs]",
)
@click.option(
    "--digest",
    "noted",
    metavar="DIGEST",
    help="Also prove the log still extends what this digest (from `campaign show`) noted.",
)
@click.option(
    "--against",
    type=click.Path(dir_okay=False, exists=True),
    metavar="EXPORT",
    help="Also prove the log still extends this earlier export of the campaign.",
)
@common
@click.pass_context
def verify(ctx: click.Context, workers: int | None, noted: str | None, against: str | None) -> None:
    """Re-derive every recorded outcome and check the log's tamper-evident hash chains, reading
    every row of the events table; the index and the characters read model are checked against it.

    Exits 1 when anything does not match, naming the log position.

    \b
    Example:
      chronicle verify --json
      chronicle verify --digest 412-3f9a0c...   (as `campaign show` printed it)
    """
    env = ctx.obj
    held = Against(export_heads(against) if against else None, parse(noted) if noted else None)
    session = env.read()
    session.app.index.catch_up()
    campaign_id = session.campaign.id
    total = session.app.index.count(campaign_id)
    single = env.batch is not None or noted or against  # a digest's N-th event needs the campaign's whole order
    shares = 1 if single else workers or bulk.workers(total, PARALLEL_FROM)
    with _progress(env, total) as advance:
        if shares == 1:
            report = check(session, advance, held if (noted or against) else None)
        else:
            env.close()  # no connection is held while the workers are forked: each opens its own
            report = verify_side_by_side(functools.partial(open_ledger, env.db), campaign_id, shares, advance)
    emit(env, report, lambda: _human(report))
    if not report["ok"]:
        ctx.exit(1)


def _human(report: dict[str, Any]) -> Any:
    if report["ok"]:
        return f"ok: {report['events']} events re-derived and chained"
    return table(
        f"{len(report['problems'])} problem(s) in {report['events']} events",
        ("position", "problem"),
        [(f"#{p['position']}", p["problem"]) for p in report["problems"]],
    )


def _progress(env: Env, total: int) -> Any:
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
