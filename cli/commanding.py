"""The body every Click command shares: its options become the command's (or the query's) model, the
application layer runs it (`Ledger.execute`, `Ledger.ask`), and the reply is printed. A Click command
is its options, its help and `@executes(Model)` or `@asks(Model)`: nothing else."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from .output import emit

if TYPE_CHECKING:
    from ..ledger.application.commands import Command
    from ..ledger.application.queries import Query
    from ..ledger.application.reply import Reply


def executes(
    model: type[Command] | str, gather: Callable[[click.Context, dict[str, Any]], dict[str, Any]] | None = None
) -> Callable[[Callable[..., Any]], Callable[..., None]]:
    """Make a Click command's callback run MODEL, built from the command's options, through the ledger.
    MODEL may be named `module:Class` (a module of `chronicle.ledger.application.commands`), imported only when the
    command runs: a module whose other commands only read (`character show`) then loads no model.

    `gather(ctx, params)`: input the front end gathers itself (`winter --ask` prompts for the table's
    dice): it takes the parsed options and returns those the command is built from."""

    def wrap(function: Callable[..., Any]) -> Callable[..., None]:
        @click.pass_context
        def run(ctx: click.Context, /, **params: Any) -> None:
            if gather is not None:
                params = gather(ctx, params)
            render(ctx.obj, ctx.obj.ledger.execute(build(resolved(model), ctx.command, params)))

        run.executes = model  # type: ignore[attr-defined]  # which command a Click command builds (tests)
        return functools.update_wrapper(run, function)

    return wrap


def asks(
    model: type[Query] | str, extra: Callable[[Any], dict[str, Any]] | None = None
) -> Callable[[Callable[..., Any]], Callable[..., None]]:
    """Make a Click command's callback ask MODEL, built from the command's parameters (each named as the
    query's field), of the ledger, and print the reply. MODEL may be named `module:Class` (a module of
    `chronicle.ledger.application.queries`). `extra(env)`: fields the front door sets itself (whether
    an event's recorded fields are wanted: only with --json)."""

    def wrap(function: Callable[..., Any]) -> Callable[..., None]:
        @click.pass_context
        def run(ctx: click.Context, /, **params: Any) -> None:
            env = ctx.obj
            render(env, env.ledger.ask(query(model, params, extra(env) if extra else {})))

        run.asks = model  # type: ignore[attr-defined]  # which query a Click command asks (tests)
        return functools.update_wrapper(run, function)

    return wrap


def query(model: type[Query] | str, params: dict[str, Any], extra: dict[str, Any] | None = None) -> Query:
    """The query MODEL of a Click command's parsed values (an absent option stays unset)."""
    if isinstance(model, str):
        module, name = model.split(":")
        model = getattr(importlib.import_module(f"chronicle.ledger.application.queries.{module}"), name)
    assert not isinstance(model, str)
    given = {name: value for name, value in params.items() if value is not None and value != ()}
    return model(**given, **(extra or {}))


def resolved(model: type[Command] | str) -> type[Command]:
    if not isinstance(model, str):
        return model
    module, name = model.split(":")
    found: type[Command] = getattr(importlib.import_module(f"chronicle.ledger.application.commands.{module}"), name)
    return found


def render(env: Any, reply: Reply) -> None:
    emit(env, lambda: reply.document, lambda: reply.text)


def build(model: type[Command], command: click.Command, params: dict[str, Any]) -> Command:
    """The command document's model from a Click command's parsed values (an absent option stays unset)."""
    named = document_keys(command)
    return model.model_validate(
        {named[name]: value for name, value in params.items() if value is not None and value != ()}
    )


@functools.cache
def document_keys(command: click.Command) -> dict[str, str]:
    """Each parameter's key in the command's document: an option by its long name (`--save-roll` is
    `save_roll`), an argument by its name."""
    keys = {}
    for param in command.params:
        if not param.expose_value or param.name is None:
            continue
        if isinstance(param, click.Option):
            keys[param.name] = max(param.opts, key=len).lstrip("-").replace("-", "_")
        else:
            keys[param.name] = param.name
    return keys
