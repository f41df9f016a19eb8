"""`chronicle report NAME [--html FILE]`: a character's chronicle for the table."""

from __future__ import annotations

from typing import Any

import click

from .options import common
from .output import emit, fields, table


@click.command()
@click.argument("name")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Write a self-contained HTML page (inline SVG chart, no network) to FILE.")
@common
@click.pass_obj
def report(env: Any, name: str, html_file: str | None) -> None:
    """The story of NAME from the log: every wound, healing, award, oath, geas, winter and correction
    (with who and why), the current sheet and condition, and for PenDragon Pass Status over time.

    \b
    Example:
      chronicle report Vasana --html vasana.html
    """
    from ..ledger.report import character_report

    data = character_report(env.read(), name)
    if html_file:
        from .files import written
        from .html import page

        with written(html_file) as out:  # whole or not at all; a full disk or missing folder is one line
            out.write(page(data).encode())
    emit(env, data, lambda: _terminal(data, html_file))


def _terminal(data: dict[str, Any], html_file: str | None) -> Any:
    from rich.console import Group

    character = data["character"]
    parts = [f"[bold]{character['name']}[/bold] — {data['campaign']} ({data['system']}), {character['summary']}",
             fields("condition", character["condition"]), fields("sheet", character["sheet"])]
    if data["status"]:
        parts.append(table("Status over time", ("#", "event", "total", "increase spent"),
                           [(p["position"], p["type"], p["total"], "yes" if p["spent"] else "") for p in data["status"]]))
    parts.append(table("Chronicle", ("#", "time", "by", "event", "what"),
                       [(e["position"], e["time"][:19], e["by"], e["type"], e["summary"]) for e in data["timeline"]]))
    if html_file:
        parts.append(f"HTML written to {html_file}")
    return Group(*parts)
