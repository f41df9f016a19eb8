"""What every command shares: the document model, the reply, and the handler registry.

A command is data: a pydantic model of what the table asks, its fields named as the command line's
arguments and options (`--save-roll` is `save_roll`; a repeatable option takes a list). Each command
class has exactly one handler, a function of (session, command) that loads once, decides once and
returns a `Reply`; `Ledger.execute` runs it in one unit of work with the retry policy."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, model_validator

if TYPE_CHECKING:
    from ..session import Session

Role = Literal["gm", "player"]


class Command(BaseModel):
    """A command document's model. Class attributes say what the command is:

    `command`: its name in documents and on the command line ("injure", "status award");
    `systems`: the rule systems it exists in (empty: every system);
    `role`: who may ask for it ("player": a player may, for a character they play; "gm": a gm only);
    `character`: the field naming the character it acts on, when it acts on one (role checks)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    command: ClassVar[str]
    systems: ClassVar[tuple[str, ...]] = ()
    role: ClassVar[Role] = "gm"
    character: ClassVar[str | None] = None
    opens_campaign: ClassVar[bool] = False  # `campaign new`: no participant to ask yet; its creator becomes one

    @model_validator(mode="after")
    def _understood_at_once(self) -> Self:
        self.understood()
        return self

    def understood(self) -> None:
        """Refuse, as bad input, what the rules cannot take (a bad notation, a declaration the domain
        rejects), when the document is read: before any ledger is opened. Nothing by default."""

    def document(self) -> dict[str, Any]:
        """The command document: `{"command": NAME, ...}` with the values given (unset options left out)."""
        return {"command": self.command, **self.model_dump(mode="json", by_alias=True, exclude_none=True)}

    def acts_on(self) -> str | None:
        """The name of the character the command acts on, if any."""
        return getattr(self, self.character) if self.character else None


@dataclass(frozen=True)
class Reply:
    """What a command returns to every front door: its JSON document and its sentences for people, each
    built when first read (a batch reads neither)."""

    build_document: Callable[[], dict[str, Any]]
    build_text: Callable[[], str]

    @cached_property
    def document(self) -> dict[str, Any]:
        return self.build_document()

    @cached_property
    def text(self) -> str:
        return self.build_text()

    @classmethod
    def of(cls, document: dict[str, Any], text: str) -> "Reply":
        return cls(lambda: document, lambda: text)


C = TypeVar("C", bound=Command)
Handler = Callable[["Session", Any], Reply]

HANDLERS: dict[type[Command], Handler] = {}


def handles(model: type[C]) -> "Callable[[Callable[[Session, C], Reply]], Callable[[Session, C], Reply]]":
    """Register the one handler of `model`."""

    def register(handler: "Callable[[Session, C], Reply]") -> "Callable[[Session, C], Reply]":
        if model in HANDLERS:
            raise TypeError(f"{model.__name__} has a handler already")
        HANDLERS[model] = handler
        return handler

    return register


def handler_of(command: Command) -> Handler:
    return HANDLERS[type(command)]
