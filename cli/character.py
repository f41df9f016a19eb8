"""`chronicle character add | show | list`."""

from __future__ import annotations

import click

from .commanding import asks, executes
from .options import common


@click.group()
def character() -> None:
    """Register characters and read their projected state."""


@character.command("add")
@click.argument("name")
@click.option("--stat", "stats", multiple=True, metavar="KEY=VALUE", help="A sheet field (repeatable).")
@click.option("--virtues", metavar="A,B,C,D,E", help="PenDragon Pass: the five religious virtues.")
@click.option(
    "--object", "is_object", is_flag=True, help="Potestas: an object (hardness, thickness) rather than a creature."
)
@common
@executes("table:CharacterAdd")
def add() -> None:
    """Register NAME with the system's sheet fields.

    PenDragon Pass: traits, passions and skills by lower-case name; a key one or
    two letters from a name the system knows is refused with `did you mean`, and
    a genuinely new skill (or passion) of such a name is written skill:NAME=V
    (passion:NAME=V).

    \b
    Example:
      chronicle character add Vasana --stat siz=15 --stat con=13 --stat valorous=17
    """


@character.command("show")
@click.argument("name")
@click.option("--as-of", "as_of", metavar="REF", help="State right after an event id, #position or ISO time.")
@common
@asks("characters:CharacterShow")
def show() -> None:
    """The current (or past) projected state of NAME: condition and sheet.

    \b
    Example:
      chronicle character show Vasana --as-of '#12' --json
    """


@character.command("list")
@click.option("--as-of", "as_of", metavar="REF", help="As the campaign stood right after REF.")
@click.option("--all", "retired", is_flag=True, help="Retired characters too.")
@common
@asks("characters:CharacterList")
def list_() -> None:
    """All characters of the campaign, a line each.

    \b
    Example:
      chronicle character list
    """


@character.command("set")
@click.argument("name")
@click.argument("assignments", nargs=-1, required=True, metavar="KEY=VALUE...")
@click.option("--reason", required=True, help="Why the sheet changes (a level gained, new armour).")
@common
@executes("table:CharacterSet")
def set_() -> None:
    """Growth, not correction: NAME's sheet changes from this point of the log on
    (--as-of an earlier event shows the old values; later outcomes use the new).
    Keys and values as for `character add`.

    \b
    Example:
      chronicle character set Brand fort=6 bab=4 --reason "reached level 4"
    """


@character.command("retire")
@click.argument("name")
@click.option("--reason", required=True, help="Why NAME leaves the campaign.")
@common
@executes("table:CharacterRetire")
def retire() -> None:
    """NAME leaves `character list` (back with --all); further actions on NAME are refused.

    \b
    Example:
      chronicle character retire Brand --reason "took holy orders"
    """


@character.command("rename")
@click.argument("old")
@click.argument("new")
@click.option("--reason", default="", help="Why (kept in the log).")
@common
@executes("table:CharacterRename")
def rename() -> None:
    """The character OLD answers to NEW from now on; its log and --as-of history stay whole.

    \b
    Example:
      chronicle character rename Vasana "Vasana Farosdaughter"
    """
