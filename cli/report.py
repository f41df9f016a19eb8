"""`chronicle report NAME [--html FILE]`: a character's chronicle for the table."""

from __future__ import annotations

from typing import Any

import click

from ..domain.explain import system_title
from ..ledger.application.views.report import character_report
from .context import Env
from .files import written
from .html import page
from .options import common
from .output import emit, stories, width, wrapped


@click.command()
@click.argument("name")
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
    data = character_report(env.read(), name, data=env.json)
    if html_file:
        with written(html_file) as out:  # whole or not at all; a full disk or missing folder is one line
            out.write(page(data).encode())
        emit(env, data, f"Wrote {data['character']['name']}'s report to {html_file}.")
        return
    emit(env, data, lambda: _terminal(data))


def _terminal(data: dict[str, Any]) -> str:
    character, columns = data["character"], width()
    title = f"{data['campaign']} ({system_title(data['system'])}), version {character['version']}"
    lines = [f"{character['name']} — {title}: {character['summary']}", ""]
    lines += [text for line in data["sheet_lines"] for text in wrapped(line, 2, columns)]
    if data["status"]:
        lines += ["", "Status over time:"]
        lines += [
            f"  #{p['position']:<6} {p['total']:>6,}" + ("  an increase spent" if p["spent"] else "")
            for p in data["status"]
        ]
    if data["health"]:
        lines += ["", "Wounds and healing:"]
        lines += [f"  #{c['position']:<6} now {c['after']}" for c in data["health"]]
    lines += ["", "Chronicle:", stories(data["timeline"], columns, who=False)]
    return "\n".join(lines)
