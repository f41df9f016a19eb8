"""`chronicle commands`: every command that writes, as the documents `batch --jsonl`, the table view and
assistants send (their JSON Schemas with --json)."""

from __future__ import annotations

from typing import Any

import click

from .options import common
from .output import emit, table


@click.command()
@common
@click.pass_obj
def commands(env: Any) -> None:
    """List every command that writes: its rule systems and what it does; with --json, each command
    document's JSON Schema (draft 2020-12).

    \b
    Example:
      chronicle commands --json
    """
    from ..ledger.application.commands import published

    listed = published()
    emit(
        env,
        lambda: {"commands": listed},
        lambda: table(
            None,
            ("command", "systems", "what it does"),
            [(name, ", ".join(entry["systems"]) or "every system", entry["summary"]) for name, entry in listed.items()],
        ),
    )
