"""`chronicle report NAME [--html FILE]`: a character's chronicle for the table."""

from __future__ import annotations

import click

from .commanding import query, render
from .context import Env
from .files import written
from .html import page
from .modelled import Modelled
from .options import common
from .output import emit


@click.command(cls=Modelled, model="queries.report:Report", arguments=["name"], fields={"data": None})
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, writable=True),
    metavar="FILE",
    help="Write a self-contained HTML page (phone-sized, printable, no network) to FILE.",
)
@common
@click.pass_obj
def report(env: Env, name: str, html_file: str | None) -> None:
    """The story of NAME from the log: every wound, healing, award, oath, geas, winter and correction
    (with who and why), the sheet and condition, and for PenDragon Pass Status over time.

    \b
    Example:
      chronicle report Vasana --html vasana.html
    """
    reply = env.ledger.ask(query("report:Report", {"name": name}, {"data": env.json}))
    if html_file:
        data = reply.document
        with written(html_file) as out:  # whole or not at all; a full disk or missing folder is one line
            out.write(page(data).encode())
        emit(env, data, f"Wrote {data['character']['name']}'s report to {html_file}.")
        return
    render(env, reply)
