"""`chronicle character add | show | list`."""

from __future__ import annotations

from typing import Any

import click

from .commanding import asks, executes
from .modelled import Modelled
from .options import common


@click.group()
def character() -> None:
    """Register characters and read their projected state."""


def _sheet_file(ctx: click.Context, params: dict[str, Any]) -> dict[str, Any]:
    """`--sheet FILE` read into the document: its keys, not its path, are what the command records."""
    if params.get("sheet") is not None:
        from ..ledger.application.sheet_files import read_sheet_file

        params = {**params, "sheet": read_sheet_file(params["sheet"])}
    return params


@character.command(
    "add",
    cls=Modelled,
    arguments=["name"],
    fields={
        "stat": {"metavar": "KEY=VALUE"},
        "sheet": {  # the document holds the file's keys (read by _sheet_file); the command line names the file
            "metavar": "FILE",
            "help": "A JSON or TOML file of sheet fields, the same keys as --stat (--stat wins over it).",
        },
        "virtues": {"metavar": "A,B,C,D,E"},
    },
)
@common
@executes("table:CharacterAdd", gather=_sheet_file)
def add() -> None:
    """Register NAME with the system's sheet fields, given as --stat KEY=VALUE or in a --sheet file
    (`chronicle rules sheet SYSTEM` lists each system's keys with their meanings):

    \b
      potestas: fort, dr (5 or 5/silver), bab, str, dex, defence, size, weapons;
                an --object: fort, hardness, thickness, holder_fort, defence, size
      adnd2e:   hp, level or hd, str (18/76), dex, ac, thac0, shield, height, size,
                backstab, race, helmet, class, weapons, petrification
      pendragon-pass: siz, con, pow, dex, str, app, honor, the 26 traits,
                passions (loyalty_*, love_*, hate_*, hospitality), skills by name,
                initiate, shaman; --virtues A,B,C,D,E

    PenDragon Pass: traits, passions and skills by lower-case name; a key one or
    two letters from a name the system knows is refused with `did you mean`, and
    a genuinely new skill (or passion) of such a name is written skill:NAME=V
    (passion:NAME=V).

    \b
    Examples:
      chronicle character add Vasana --stat siz=15 --stat con=13 --stat valorous=17
      chronicle character add Vasana --sheet vasana.toml
    """


@character.command("show", cls=Modelled, arguments=["name"], fields={"as_of": {"metavar": "REF"}})
@common
@asks("characters:CharacterShow")
def show() -> None:
    """The current (or past) projected state of NAME: condition and sheet.

    \b
    Example:
      chronicle character show Vasana --as-of '#12' --json
    """


@character.command("list", cls=Modelled, fields={"as_of": {"metavar": "REF"}, "retired": {"opts": ["--all"]}})
@common
@asks("characters:CharacterList")
def list_() -> None:
    """All characters of the campaign, a line each.

    \b
    Example:
      chronicle character list
    """


@character.command(
    "set",
    cls=Modelled,
    arguments=["name", "assignments"],
    fields={"assignments": {"metavar": "[KEY=VALUE]..."}, "npc": {"opts": ["--npc/--pc"], "default": None}},
)
@common
@executes("table:CharacterSet")
def set_() -> None:
    """Growth, not correction: NAME's sheet changes from this point of the log on
    (--as-of an earlier event shows the old values; later outcomes use the new).
    Keys and values as for `character add`. --npc makes NAME one of the others
    (foes, monsters, the gm's people), --pc one of the party again.

    \b
    Examples:
      chronicle character set Brand fort=6 bab=4 --reason "reached level 4"
      chronicle character set "Orc Chief" --npc
    """


@character.command("retire", cls=Modelled, arguments=["name"])
@common
@executes("table:CharacterRetire")
def retire() -> None:
    """NAME leaves `character list` (back with --all); further actions on NAME are refused.

    \b
    Example:
      chronicle character retire Brand --reason "took holy orders"
    """


@character.command("rename", cls=Modelled, arguments=["old", "new"])
@common
@executes("table:CharacterRename")
def rename() -> None:
    """The character OLD answers to NEW from now on; its log and --as-of history stay whole.

    \b
    Example:
      chronicle character rename Vasana "Vasana Farosdaughter"
    """
