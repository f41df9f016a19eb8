"""Click commands whose arguments and options are their model's fields: a command's (`@executes`) or a
query's (`@asks`). Each field is an option named as its document key (`save_roll` is `--save-roll`, an
alias as itself: `for_` is `--for`), or an argument when the command says so; its type is the field's (a
bool a flag, a list repeatable, a Literal a choice, a whole number Click's `int`, held to 64 bits by
cli/complete.py's `wire`), its help the field's description, required when the field is. What only the
command line has is said per field (`fields`: a metavar, other names (`opts`), a default shown, other
help; None leaves a field off the command line, for the front door to set) or by options of its own.

The parameters are made when the command is first parsed, completed or asked for its help, not when its
module is imported: a module's reading command (`character show`) loads none of its writing commands'
models (start-up is most of what a read of rows costs)."""

from __future__ import annotations

import dataclasses
import importlib
import typing
from collections.abc import Callable, Mapping, Sequence
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, get_args, get_origin

import click


@dataclasses.dataclass(frozen=True)
class Field:
    """A model's field as the command line takes it."""

    name: str  # the parameter's (and the model's) name
    key: str  # the document's key: the option's name
    annotation: Any
    required: bool
    default: Any
    description: str


class Modelled(click.Command):
    """A Click command whose parameters are made from its model (see the module), then its own options."""

    def __init__(
        self,
        name: str | None,
        *,
        arguments: Sequence[str] = (),
        fields: Mapping[str, Mapping[str, Any] | None] | None = None,
        model: str | None = None,
        **settings: Any,
    ) -> None:
        self.arguments, self.fields, self.model = tuple(arguments), dict(fields or {}), model
        self._made: list[click.Parameter] | None = None
        self._own: list[click.Parameter] = []
        self._on_made: list[Callable[[click.Command], None]] = []
        super().__init__(name, **settings)

    @property
    def params(self) -> list[click.Parameter]:
        if self._made is None:
            self._made = [*parameters(model_of(self), self.arguments, self.fields), *self._own]
            for then in self._on_made:
                then(self)
        return self._made

    @params.setter
    def params(self, given: list[click.Parameter]) -> None:
        self._own, self._made = list(given), None

    @property
    def made(self) -> bool:
        return self._made is not None

    def once_made(self, then: Callable[[click.Command], None]) -> None:
        """Call THEN with this command once its parameters are made (now, if they are)."""
        if self._made is not None:
            then(self)
        else:
            self._on_made.append(then)


def model_of(command: Modelled) -> type:
    """The model a command runs: the one it names (`queries.report:Report`), else its callback's: the
    command's (`executes`) or the query's (`asks`)."""
    named: Any
    if command.model is not None:
        package, _, named = command.model.partition(".")
    else:
        named, package = getattr(command.callback, "executes", None), "commands"
        if named is None:
            named, package = getattr(command.callback, "asks", None), "queries"
    if named is None:
        raise TypeError(f"{command.name}: a Modelled command runs a model (`@executes` or `@asks`)")
    if not isinstance(named, str):
        return typing.cast(type, named)
    module, attribute = named.split(":")
    found: type = getattr(importlib.import_module(f"chronicle.ledger.application.{package}.{module}"), attribute)
    return found


# a document's own fields that no command line gives: the command line has no device apart from the ledger
DEVICE_ONLY = frozenset({"device_seed"})


def parameters(
    model: type, arguments: Sequence[str], overrides: Mapping[str, Mapping[str, Any] | None]
) -> list[click.Parameter]:
    """MODEL's fields as Click's parameters: ARGUMENTS first, in their order, then every other field an
    option, in the model's order; OVERRIDES[field] changes any of Click's settings for it (None: no
    parameter for it)."""
    found = {field.name: field for field in fields_of(model)}
    unknown = (set(arguments) | set(overrides)) - set(found)
    if unknown:
        raise TypeError(f"{model.__name__} has no field {sorted(unknown)[0]!r}")
    made: list[click.Parameter] = []
    for name in arguments:
        made.append(click.Argument([name], **{**argument_settings(found[name]), **(overrides.get(name) or {})}))
    for field in found.values():
        if field.name in arguments or (field.name in overrides and overrides[field.name] is None):
            continue
        if field.name in DEVICE_ONLY:
            continue
        settings = {**option_settings(field), **(overrides.get(field.name) or {})}
        named = settings.pop("opts", [f"--{field.key.replace('_', '-')}"])
        made.append(click.Option([*named, field.name], **settings))
    return made


def fields_of(model: type) -> list[Field]:
    """A pydantic model's fields, or a dataclass's (a query's), in their order."""
    if dataclasses.is_dataclass(model):
        hints = typing.get_type_hints(model)
        return [
            Field(
                found.name,
                found.name,
                hints[found.name],
                found.default is dataclasses.MISSING and found.default_factory is dataclasses.MISSING,
                None if found.default is dataclasses.MISSING else found.default,
                found.metadata.get("description", ""),
            )
            for found in dataclasses.fields(model)
        ]
    described = getattr(model, "model_fields", {})
    return [
        Field(
            name,
            info.alias or name,
            info.annotation,
            info.is_required(),
            None if info.is_required() else info.get_default(call_default_factory=True),
            info.description or "",
        )
        for name, info in described.items()
    ]


def option_settings(field: Field) -> dict[str, Any]:
    kind = plain(field.annotation)
    settings: dict[str, Any] = {"help": field.description or None, "required": field.required}
    if kind is bool:
        return {**settings, "is_flag": True, "required": False}
    many = _items(kind)
    if many is not None:
        return {**settings, "multiple": True, **_typed(many)}
    return {**settings, **_typed(kind)}


def argument_settings(field: Field) -> dict[str, Any]:
    kind = plain(field.annotation)
    many = _items(kind)
    if many is not None:
        return {"nargs": -1, "required": field.required, **_typed(many)}
    settings = {"required": field.required, **_typed(kind)}
    if not field.required and field.default is not None:
        settings["default"] = field.default
    return settings


def plain(annotation: Any) -> Any:
    """ANNOTATION without `Annotated` and without `None` (an optional value is a value that may be left out)."""
    if get_origin(annotation) is Annotated:
        return plain(get_args(annotation)[0])
    if get_origin(annotation) in (typing.Union, UnionType):
        kept = [plain(part) for part in get_args(annotation) if part is not NoneType]
        return kept[0] if len(kept) == 1 else typing.Union[tuple(kept)]  # noqa: UP007  (made at run time)
    return annotation


def _items(kind: Any) -> Any:
    """The type of a list's or a tuple's items (None: no list)."""
    if get_origin(kind) in (list, tuple):
        return plain(get_args(kind)[0])
    return None


def _typed(kind: Any) -> dict[str, Any]:
    if get_origin(kind) is Literal:
        return {"type": click.Choice([str(value) for value in get_args(kind)])}
    if kind is int:
        return {"type": int}
    return {}
