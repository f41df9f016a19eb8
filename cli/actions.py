"""Recording one resolution from a command: its inputs from the options, and its result document."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from ..domain import systems
from ..domain.errors import BadInput
from ..domain.ids import event_id


def inputs(model: type, **values: Any) -> Any:
    """The action's inputs model from option values; a value the model rejects is bad input."""
    try:
        return model(**{k: v for k, v in values.items() if v is not None})
    except ValidationError as error:
        raise BadInput(first_error(error)) from None


def first_error(error: ValidationError) -> str:
    problem = error.errors()[0]
    where = ".".join(str(p) for p in problem["loc"])
    return f"{where}: {problem['msg']}" if where else problem["msg"]


class Later(Mapping[str, Any]):
    """A result document built when it is first read (printed, or composed into a bigger one), not when
    it is recorded: a batch prints nothing, so its lines build none. `emit` calls it for the document."""

    def __init__(self, build: Callable[[], dict[str, Any]]):
        self._build: Callable[[], dict[str, Any]] | None = build
        self._built: dict[str, Any] = {}

    def __call__(self) -> dict[str, Any]:
        if self._build is not None:
            self._built, self._build = self._build(), None
        return self._built

    def then(self, step: Callable[[dict[str, Any]], dict[str, Any]]) -> Later:
        """The document `step` makes of this one, built when read."""
        return Later(lambda: step(self()))

    def __getitem__(self, key: str) -> Any:
        return self()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self())

    def __len__(self) -> int:
        return len(self())


def describe(character: Any, event: Any) -> Later:
    """`{"event", "version", "character", "type", **outcome, "condition", "dice"}`, built when read from
    the character as `event` left it (its sheet and condition are frozen models, replaced by later
    events, never changed)."""
    ident, name, system, sheet, condition = (
        character.id,
        character.name,
        character.system,
        character.sheet,
        character.condition,
    )

    def build() -> dict[str, Any]:
        result: dict[str, Any] = {
            "event": event_id(ident, event.originator_version),
            "version": event.originator_version,
            "character": name,
            "type": type(event).__name__,
        }
        result.update(event.outcome.model_dump(mode="json"))
        result["condition"] = systems.get(system).view(sheet, condition)["condition"]
        result["dice"] = [roll.model_dump(mode="json") for roll in event.dice.rolls]
        return result

    return Later(build)
