"""What every command shares: the document model, the reply, and the handler registry.

A command is data: a pydantic model of what the table asks, its fields named as the command line's
arguments and options (`--save-roll` is `save_roll`; a repeatable option takes a list). Each command
class has exactly one handler, a function of (session, command) that loads once, decides once and
returns a `Reply`; `Ledger.execute` runs it in one unit of work with the retry policy."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Self, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, model_validator

from ..reply import Reply

if TYPE_CHECKING:
    from ..session import Session

Role = Literal["gm", "player"]
HEX64 = r"^[0-9a-f]{64}$"


def _device_seed(value: str) -> str:
    if len(value) != 64 or value.strip("0123456789abcdef"):
        raise ValueError("a device seed is 64 lower-case hex characters (32 bytes the device drew)")
    return value


DeviceSeed = Annotated[str, AfterValidator(_device_seed), WithJsonSchema({"type": "string", "pattern": HEX64})]


class Command(BaseModel):
    """A command document's model. Class attributes say what the command is:

    `command`: its name in documents and on the command line ("injure", "status award");
    `systems`: the rule systems it exists in (empty: every system);
    `role`: who may ask for it ("player": a player may, for a character they play; "gm": a gm only);
    `character`: the field naming the character it acts on, when it acts on one (role checks);
    `label`: its name on the form a page offers for it (else its name, capitalized)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    command: ClassVar[str]
    systems: ClassVar[tuple[str, ...]] = ()
    role: ClassVar[Role] = "gm"
    character: ClassVar[str | None] = None
    label: ClassVar[str] = ""
    opens_campaign: ClassVar[bool] = False  # `campaign new`: no participant to ask yet; its creator becomes one
    chooses: ClassVar[bool] = False  # `campaign use`: the user's own choice, recorded in no log, asking no one

    # a document's own (the command line has no device apart from the ledger): docs/fair-dice.md
    device_seed: DeviceSeed | None = Field(
        None,
        description="32 random bytes the signing device drew, as 64 lower-case hex characters: the ledger's "
        "fair dice for this command mix them with its committed seed (docs/fair-dice.md).",
    )

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
