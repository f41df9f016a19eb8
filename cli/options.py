"""Options several commands share, as plain decorators (after sqlite-utils)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


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
