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


def pairs(values: tuple[str, ...], what: str = "stat") -> dict[str, str]:
    """`KEY=VALUE` strings into a dict; a malformed pair is bad input."""
    from ..domain.errors import BadInput

    result: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BadInput(f"--{what} takes KEY=VALUE, got {item!r}")
        result[key.strip()] = value.strip()
    return result


def faces(text: str | None, option: str = "--dice") -> list[int] | None:
    """`--dice 3,5` into [3, 5]; a malformed list is bad input naming `option`."""
    if text is None:
        return None
    from ..domain.errors import BadInput

    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise BadInput(f"{option} takes comma-separated whole numbers, got {text!r}") from None
