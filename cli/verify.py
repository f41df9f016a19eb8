"""`chronicle verify`: re-derive every outcome and check the hash chains (the application layer's
`verify` query)."""

from __future__ import annotations

import click

from .commanding import query, render
from .options import common


@click.command()
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    metavar="N",
    help="Processes checking the log side by side  [default: one per core on long logs]",
)
@click.option(
    "--digest",
    metavar="DIGEST",
    help="Also prove the log still extends what this digest (from `campaign show`) noted.",
)
@click.option(
    "--against",
    type=click.Path(dir_okay=False, exists=True),
    metavar="EXPORT",
    help="Also prove the log still extends this earlier export of the campaign.",
)
@click.option(
    "--require-signatures",
    is_flag=True,
    help="An event recorded before chronicle signed what it records is a problem too.",
)
@click.option(
    "--witness",
    type=click.Path(dir_okay=False, exists=True),
    metavar="NOTE",
    help="Also prove, by an RFC 6962 consistency proof, that the log still extends this checkpoint (a note"
    " from `chronicle checkpoint`), or name the first event whose history changed.",
)
@common
@click.pass_context
def verify(ctx: click.Context, /, **params: object) -> None:
    """Re-derive every recorded outcome and check the log's tamper-evident hash chains, reading
    every row of the events table; the index and the characters read model are checked against it.

    Exits 1 when anything does not match, naming the log position.

    \b
    Example:
      chronicle verify --json
      chronicle verify --digest 412-3f9a0c...   (as `campaign show` printed it)
      chronicle verify --witness session-12.note   (as `checkpoint` printed it)
    """
    env = ctx.obj
    reply = env.ledger.ask(query("verify:Verify", params))
    render(env, reply)
    if not reply.document["ok"]:
        ctx.exit(1)
