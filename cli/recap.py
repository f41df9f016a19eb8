"""`chronicle recap [--session N|last]`: "previously on ..." for the table."""

from __future__ import annotations

from typing import Any

import click

from ..ledger.report import session_recap
from .context import Env
from .options import common
from .output import emit, width, wrapped


@click.command()
@click.option(
    "--session", "sitting", default="last", show_default=True, metavar="N|last", help="Which session to tell."
)
@common
@click.pass_obj
def recap(env: Env, sitting: str) -> None:
    """Previously on the campaign: per character, what changed in a session, in sentences.

    \b
    Example:
      chronicle recap --session 3
    """
    data = session_recap(env.read(), sitting)
    emit(env, data, lambda: told(data, width()))


def told(data: dict[str, Any], columns: int) -> str:
    sitting = data["session"]
    title = f', "{sitting["title"]}"' if sitting["title"] else ""
    running = " (still running)" if sitting["end"] is None else ""
    when = f" of {sitting['start_time']}" if sitting["start_time"] else ""
    lines = wrapped(f"Previously on {data['campaign']}: session {sitting['number']}{title}{when}{running}.", 0, columns)
    if not data["characters"] and not data["campaign_events"]:
        lines.append("Nothing happened to anyone.")
    for character in data["characters"]:
        lines.append("")
        lines += wrapped(_change(character), 0, columns)
        for event in character["events"]:
            lines += wrapped(f"#{event['position']} {event['summary']}", 4, columns)
    if data["campaign_events"]:
        lines += ["", "For the whole campaign:"]
        for event in data["campaign_events"]:
            lines += wrapped(f"#{event['position']} {event['summary']}", 4, columns)
    return "\n".join(lines)


def _change(character: dict[str, Any]) -> str:
    name, before, after = character["name"], character["before"], character["after"]
    if before is None:
        return f"{name} joined during the session. At its end: {after}."
    if before == after:
        return f"{name} at the start and at the end: {after}."
    return f"{name} at the start: {before}. At the end: {after}."
