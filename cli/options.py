"""Options several commands share, as plain decorators (after sqlite-utils)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..domain.errors import BadInput
from ..domain.limits import typed_within_int64
from ..domain.text import printable


def _set_json(ctx: click.Context, _: Any, value: bool) -> None:
    if value:
        ctx.obj.json = True


def _set_campaign(ctx: click.Context, _: Any, value: str | None) -> None:
    if value:
        ctx.obj.campaign = value


# they do nothing when their option is absent: a batch need not call them for every line (cli/batch.py)
_set_json.inert_when_absent = _set_campaign.inert_when_absent = True  # type: ignore[attr-defined]


def common(command: Callable[..., Any]) -> Callable[..., Any]:
    """`--json` and `--campaign` are accepted after the command too (`chronicle roll d20 --json`)."""
    command = click.option(
        "--json",
        "json_",
        is_flag=True,
        expose_value=False,
        callback=_set_json,
        is_eager=True,
        help="Print exactly one JSON document on stdout.",
    )(command)
    return click.option(
        "--campaign",
        expose_value=False,
        callback=_set_campaign,
        metavar="NAME",
        help="Which campaign (when the database holds several).",
    )(command)


# Whole numbers typed as options and arguments: Click's own `int` and `IntRange`, held to 64 bits. The bound
# belongs to what is parsed as a number, never to free text made of digits
# (`note 99999999999999999999` is a note), so it is the parameter's type that holds it, not the command line.


def _bounded(convert: Callable[[Any], int], value: Any, param: click.Parameter | None) -> int:
    """VALUE converted by CONVERT (Click's own), unless it is a whole number beyond 64 bits: bad input
    naming the parameter (one line, exit 2). Digits past the limit are counted, never converted."""
    if param is None:
        named = "a number"
    else:  # `--tail`, or an argument's name as its usage writes it (`DAMAGE`)
        named = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
    shown = f"{named} {printable(str(value)[:40])}"
    if isinstance(value, str) and not value.isascii():  # Python reads other scripts' digits (`١٢` is 12): not a number
        raise BadInput(f"{shown} is not a whole number: write it in the digits 0-9")
    typed = typed_within_int64(value, shown)
    number = convert(value if typed is None else str(typed))  # (Click's checks: a range, `1_000`, ...)
    if isinstance(number, int):  # what Python's int() also reads (`1_000`), once converted
        typed_within_int64(number, shown)
    return number


class Int64(click.types.IntParamType):
    """Click's `int`, within 64 bits."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return _bounded(lambda given: super(Int64, self).convert(given, param, ctx), value, param)


class Int64Range(click.IntRange):
    """Click's `IntRange` (its help says the range as Click's does), within 64 bits."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return _bounded(lambda given: super(Int64Range, self).convert(given, param, ctx), value, param)


INT64 = Int64()


def whole_numbers_within_64_bits(param: click.Parameter) -> None:
    """Give PARAM, if Click parses it as a whole number (`type=int`, `IntRange`), the same type held to
    64 bits. Every command is loaded through `cli/complete.wire`, which calls this for each parameter:
    a command written with Click's own types needs nothing more."""
    kind = param.type
    if isinstance(kind, (Int64, Int64Range)):
        return
    if isinstance(kind, click.IntRange):
        param.type = Int64Range(kind.min, kind.max, kind.min_open, kind.max_open, kind.clamp)
    elif isinstance(kind, click.types.IntParamType):
        param.type = INT64
