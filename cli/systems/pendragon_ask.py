"""`winter --ask`: on a terminal, the table gives each die in turn, asked for by character and check;
what it gives becomes the command's plan (`ledger/application/commands/pendragon_winter.table_dice` says which
dice a winter needs, in the order it draws them)."""

from __future__ import annotations

import sys

import click


def on_terminal() -> bool:
    return sys.stdin.isatty()


def ask(who: str, label: str, sides: int) -> int:
    """The table's face of one die, asked for on stderr."""
    face: int = click.prompt(f"{who}: {label} (d{sides})", type=click.IntRange(1, sides), err=True)
    return face
