"""`chronicle winter [--year Y] [--land-roll N] [--rolls FILE] [--ask]`: the campaign's Winter Phase
(docs/rulings.md, PenDragon Pass, Winter Phase). The --rolls file becomes the command's plan; --ask gathers the
table's dice at a terminal before the command runs."""

from __future__ import annotations

from typing import Any

import click
import orjson
from click.core import ParameterSource

from ...domain.errors import BadInput
from ...ledger.application.commands.pendragon_winter import Winter, table_dice
from ..commanding import executes
from ..options import common
from . import pendragon_ask
from .pendragon_common import HELP

LARGEST_PLAN = 1 << 20  # bytes: a winter plan is a page of JSON; more (or /dev/zero) is bad input


class PlanFile(click.ParamType):
    """A JSON file (`-` for stdin), read whole up to LARGEST_PLAN bytes, as its JSON value."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value  # a plan already read (a default, or a batch's value)
        try:
            with click.open_file(value, "rb") as source:
                content = source.read(LARGEST_PLAN + 1)
        except OSError as error:
            raise BadInput(f"--rolls: cannot read {value}: {error.strerror or error}") from None
        if len(content) > LARGEST_PLAN:
            raise BadInput(f"--rolls: a winter plan is at most {LARGEST_PLAN:,} bytes")
        try:
            return orjson.loads(content)
        except orjson.JSONDecodeError as error:  # not JSON, not UTF-8, or nested past orjson's limit
            raise BadInput(f"--rolls: not a JSON document ({str(error).split(':')[0]})") from None


def asked(ctx: click.Context, params: dict[str, Any]) -> dict[str, Any]:
    """With --ask, the table's dice for the winter, asked for at the terminal, in its plan. (--ask is no
    key of the command's document: whether it was given is its parameter source.)"""
    if ctx.get_parameter_source("ask") is not ParameterSource.COMMANDLINE:
        return params
    if not pendragon_ask.on_terminal():
        raise BadInput("--ask asks the table at a terminal; without one, give the dice with --rolls FILE")
    given = Winter.model_validate({key: value for key, value in params.items() if value is not None})
    completed = table_dice(ctx.obj.read(), given, pendragon_ask.ask)
    return completed.model_dump(exclude_none=True)


@click.command(context_settings=HELP)
@click.option("--year", type=int, metavar="Y", help="The campaign year (default: the last winter + 1, or 1).")
@click.option(
    "--land-roll", "land_roll", type=int, metavar="N", help="The table's d6 for the land (else the ledger rolls)."
)
@click.option(
    "--rolls",
    type=PlanFile(),
    metavar="FILE",
    help="A JSON file (- for stdin) of choices and table dice per character (its shape is shown under the "
    "command's description).",
)
@click.option(
    "--ask",
    is_flag=True,
    expose_value=False,
    help="On a terminal: ask the table for each die in turn, naming character and check.",
)
@common
@executes(Winter, gather=asked)
def winter() -> None:
    """Run the campaign's Winter Phase: one land roll (1 terrible -5, 2 bad -2, 3-4 normal, 5 good +2,
    6 excellent +5), then for every living character economics, worship, Status from traits and
    passions at 16+, the religious virtues, geas upkeep and leadership, training and experience rolls
    for every check. A second winter for the same year is refused (exit 1) and writes nothing.

    Without --rolls each character rolls its best productivity skill on the sheet (animal_lore,
    bargaining, devise, hunting, industry, mineral_lore, plant_lore, stewardship), worships with
    religion if an initiate (else custom_own if a shaman) and the skill is on the sheet, and the
    ledger rolls every die; with --ask on a terminal the table gives each die instead, asked for in
    turn. --rolls FILE is:

    \b
      {"year": 1621, "land": 4,
       "characters": {"Vasana": {
         "productivity": "stewardship", "productivity_modifier": 0,
         "worship": "religion", "worship_modifier": 0, "leadership_people": 300,
         "training": [{"kind": "skill", "what": "sword"}],
         "aging": {"str": -1}, "family": "a daughter", "magic_item": null,
         "rolls": {"productivity": 12, "worship": 5, "training": {"sword": 17},
                   "experience": {"pow": 3, "valorous": 20}}}}}

    Every key is optional; null skips productivity or worship; dice missing from "rolls" are rolled
    by the ledger. Training and experience dice are keyed by the skill or check (a list for several
    months of one skill), so a later correction moves no die to another check. A refusal names the
    character and the check; training that reaches its cap (15 for physical skills, 20 for any)
    stops there, the remaining months spent.

    \b
    Example:
      chronicle winter --year 1621 --land-roll 4 --rolls winter-1621.json
    """
