"""`chronicle verify`: re-derive every outcome and check the hash chains (the application layer's
`verify` query)."""

from __future__ import annotations

import click

from .commanding import query, render
from .modelled import Modelled
from .options import common


@click.command(
    cls=Modelled,
    model="queries.verify:Verify",
    fields={
        "workers": {"type": click.IntRange(1, 64), "metavar": "N"},
        "digest": {"metavar": "DIGEST"},
        "against": {"type": click.Path(dir_okay=False, exists=True), "metavar": "EXPORT"},
        "witness": {"type": click.Path(dir_okay=False, exists=True), "metavar": "NOTE"},
    },
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
