"""`chronicle roll NOTATION [--for NAME] [--reason TEXT] [--roll N | --dice FACES]`."""

from __future__ import annotations

import re

import click

from ..ledger.application.commands.table import Roll
from .commanding import executes
from .modelled import Modelled
from .options import common

_NEGATIVE_NOTATION = re.compile(r"-[\d(d]", re.IGNORECASE)  # -1d4, -d8, -(1d6+1), -3


class NotationCommand(Modelled):
    """A notation may begin with a minus (`roll -1d4`, docs/scripting.md, Names, references and time): that word is the
    notation, not an option, so it is handed to Click after `--`, where every word is an argument."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self.before_parse(ctx, args))

    def before_parse(self, ctx: click.Context, args: list[str]) -> list[str]:
        """The words as Click is to parse them (a batch parses each line its own faster way after this)."""
        if not any(_NEGATIVE_NOTATION.match(word) for word in args):
            return args
        takes_value = {
            name: not (param.is_flag or param.count)
            for param in self.get_params(ctx)
            if isinstance(param, click.Option)
            for name in (*param.opts, *param.secondary_opts)
        }
        return _negative_notation_last(args, takes_value)


def _negative_notation_last(args: list[str], takes_value: dict[str, bool]) -> list[str]:
    """`args` with a notation that begins with a minus moved after `--`; an option's value stays in place."""
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            return args
        name, has_value, _ = word.partition("=")
        if name in takes_value:
            i += 2 if takes_value[name] and not has_value else 1
        elif _NEGATIVE_NOTATION.match(word):
            return [*args[:i], *args[i + 1 :], "--", word]
        elif word.startswith("-"):
            i += 1  # an unknown option: Click names it
        else:
            return args  # the notation, as a plain word
    return args


@click.command(
    cls=NotationCommand,
    arguments=["notation"],
    fields={
        "for_": {"metavar": "NAME"},
        "roll": {"metavar": "N"},
        "dice": {"metavar": "FACES", "multiple": False, "type": click.STRING},  # `3,5`: one word
    },
)
@common
@executes(Roll)
def roll() -> None:
    """Roll dice and record the result: NdX, dX, d%, constants, kh/kl/dh/dl, + - * / (rounding down),
    parentheses and a leading minus.

    \b
    Example:
      chronicle roll 4d6kh3 --for Vasana --reason "new statistic"
      chronicle roll "(1d8+3)*2"
      chronicle roll d% --roll 37
    """
