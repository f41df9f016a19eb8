"""`chronicle character add | show | list`."""

from __future__ import annotations

from typing import Any

import click

from ..domain.titles import system_title
from .commanding import executes
from .options import common
from .output import aligned, emit


@click.group()
def character() -> None:
    """Register characters and read their projected state."""


def _sheet_file(ctx: click.Context, params: dict[str, Any]) -> dict[str, Any]:
    """`--sheet FILE` read into the document: its keys, not its path, are what the command records."""
    if params.get("sheet") is not None:
        from ..ledger.application.sheet_files import read_sheet_file

        params = {**params, "sheet": read_sheet_file(params["sheet"])}
    return params


@character.command("add")
@click.argument("name")
@click.option("--stat", "stats", multiple=True, metavar="KEY=VALUE", help="A sheet field (repeatable).")
@click.option(
    "--sheet",
    metavar="FILE",
    help="A JSON or TOML file of sheet fields, the same keys as --stat (--stat wins over it).",
)
@click.option("--virtues", metavar="A,B,C,D,E", help="PenDragon Pass: the five religious virtues.")
@click.option(
    "--object", "is_object", is_flag=True, help="Potestas: an object (hardness, thickness) rather than a creature."
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


@character.command("show")
@click.argument("name")
@click.option("--as-of", "as_of", metavar="REF", help="State right after an event id, #position or ISO time.")
@common
@click.pass_obj
def show(env: Any, name: str, as_of: str | None) -> None:
    """The current (or past) projected state of NAME: condition and sheet.

    \b
    Example:
      chronicle character show Vasana --as-of '#12' --json
    """
    data = None
    if as_of is None and env.batch is None:  # the common case: one row, no domain models loaded
        from ..ledger.application.views.rows import current_view

        data = current_view(env.app, env.campaign, name)
    if data is None:
        from ..ledger.application.views.characters import character_view

        data = character_view(env.read(), name, as_of)
    emit(env, data, lambda: sheet_text(data))


def sheet_text(data: dict[str, Any]) -> str:
    """A character's view as the system's players read it (the row keeps the domain's `sheet_lines`)."""
    kind = "" if data.get("kind", "character") == "character" else f", {data['kind']}"
    retired = ", retired" if data.get("retired") else ""
    title = f"{system_title(data['system'])}{kind}{retired}, version {data['version']}"
    head = f"{data['name']} ({title}): {data['summary']}"
    return "\n".join([head, *(f"  {line}" for line in data["sheet_lines"])])


@character.command("list")
@click.option("--as-of", "as_of", metavar="REF", help="As the campaign stood right after REF.")
@click.option("--all", "retired", is_flag=True, help="Retired characters too.")
@common
@click.pass_obj
def list_(env: Any, as_of: str | None, retired: bool) -> None:
    """All characters of the campaign, a line each.

    \b
    Example:
      chronicle character list
    """
    rows = None
    if as_of is None and env.batch is None:  # the common case: the rows alone, no domain models loaded
        from ..ledger.application.views.rows import current_list

        rows = current_list(env.app, env.campaign, retired)
    if rows is None:
        from ..ledger.application.views.characters import character_list

        rows = character_list(env.read(), as_of, retired)
    emit(
        env,
        {"characters": rows},
        lambda: aligned(
            ("character", "version", "condition"),
            [(r["name"] + (" (retired)" if r.get("retired") else ""), r["version"], r["summary"]) for r in rows],
        ),
    )


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


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {inner}" for key, inner in value.items())
    if isinstance(value, (list, tuple)):
        return "; ".join(str(item) for item in value)
    return str(value)
