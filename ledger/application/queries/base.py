"""What every query shares: the model, its one handler, and the catalogue of them by name.

A query is data, as a command is: what a front door asks of the ledger, its fields named as the
command line's arguments and options (`--as-of` is `as_of`). It is a frozen dataclass rather than a
pydantic model, so that asking one costs no more than importing the standard library: `character show`
reads one row, and pydantic's models would double its start-up (tests/perf/test_start_up.py). A query
built from a document (an assistant's arguments, a page's parameters) is validated by pydantic all the
same (`parse`), and its JSON Schema is pydantic's (`schema_of`).

Each query class has exactly one handler, a function of (ledger, query) that reads and returns a
`Reply`, the same reply a command's handler returns: its JSON document and its text for people."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar
from uuid import UUID

from ....domain.errors import BadInput, NotFound
from ..reply import Reply

if TYPE_CHECKING:
    from ..ledger import Ledger
    from ..opened import Chronicle


class Query:
    """A query's model. Class attributes say what it is:

    `query`: its name in documents and on the command line ("character show", "log").

    A field whose metadata says `"document": False` is the caller's own choice of how to read (the
    CLI asks for an event's recorded fields only with --json), never part of a document."""

    query: ClassVar[str]
    # pydantic's settings for a document read as this query (`parse`): no key it does not name
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}

    def document(self) -> dict[str, Any]:
        """The query as a document: `{"query": NAME, ...}` with the values given (unset ones left out)."""
        values = {
            field.name: getattr(self, field.name)
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
            if field.metadata.get("document", True) and getattr(self, field.name) is not None
        }
        return {"query": self.query, **{key: list(v) if isinstance(v, tuple) else v for key, v in values.items()}}


Q = TypeVar("Q", bound=Query)
Handler = Callable[["Ledger", Any], Reply]

HANDLERS: dict[type[Query], Handler] = {}


def answers(model: type[Q]) -> Callable[[Callable[[Ledger, Q], Reply]], Callable[[Ledger, Q], Reply]]:
    """Register the one handler of `model`."""

    def register(handler: Callable[[Ledger, Q], Reply]) -> Callable[[Ledger, Q], Reply]:
        if model in HANDLERS:
            raise TypeError(f"{model.__name__} has a handler already")
        HANDLERS[model] = handler
        return handler

    return register


def handler_of(query: Query) -> Handler:
    try:
        return HANDLERS[type(query)]
    except KeyError:
        raise BadInput(f"{type(query).__name__} is not a query this ledger answers") from None


def described(model: type[Query]) -> dict[str, str]:
    """Each field's description, by field name (what `--help`, a tool's schema and the docs say of it)."""
    return {
        field.name: field.metadata.get("description", "")
        for field in dataclasses.fields(model)  # type: ignore[arg-type]
    }


def callers(model: type[Query]) -> set[str]:
    """The fields of MODEL that are the caller's own choice of how to read, never a document's (see `Query`)."""
    return {
        found.name
        for found in dataclasses.fields(model)  # type: ignore[arg-type]
        if not found.metadata.get("document", True)
    }


def field(description: str, default: Any = None, *, document: bool = True) -> Any:
    """A query's field: its DEFAULT and what it means; `document=False`: the caller's own choice of how
    to read, never part of a document (see `Query`)."""
    metadata: dict[str, Any] = {"description": description}
    if not document:
        metadata["document"] = False
    return dataclasses.field(default=default, metadata=metadata)


def required(description: str) -> Any:
    """A field every query of the model gives (no default)."""
    return dataclasses.field(metadata={"description": description})


def campaign_by_id(app: Chronicle, given: str) -> tuple[UUID, str, str]:
    """The campaign a page names by its id (`campaign=`): that id, its name and system, read from APP's index
    (caught up first); bad input when GIVEN is no id, not found when the ledger has no such campaign."""
    try:
        campaign = UUID(given)
    except ValueError:
        raise BadInput("campaign= is a campaign's id") from None
    index = app.index
    index.catch_up()
    found = index.campaign(str(campaign))
    if found is None:
        raise NotFound("this ledger has no campaign with that id")
    return campaign, *found
