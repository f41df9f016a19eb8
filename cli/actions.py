"""Recording one resolution from a command: build the inputs, decide, save, describe the result."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..domain.errors import BadInput


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


def record(env: Any, name: str, event_class: type, action_inputs: Any, table: dict[str, list[int] | None] | None = None) -> dict[str, Any]:
    """Resolve `event_class` for character NAME, save it, and return the contract's result document."""

    def decide(session: Any) -> dict[str, Any]:
        character = session.character(name)
        event = session.resolve(character, event_class, action_inputs, table)
        return describe(session, character, event)

    return env.write(decide)


def describe(session: Any, character: Any, event: Any) -> dict[str, Any]:
    """`{"event", "version", "character", "type", **outcome, "condition"}` (+ the system's extra keys)."""
    from ..domain.ids import event_id

    result: dict[str, Any] = {"event": event_id(character.id, event.originator_version),
                              "version": event.originator_version, "character": character.name,
                              "type": type(event).__name__}
    result.update(event.outcome.model_dump(mode="json"))
    view = session.rules.view(character.sheet, character.condition)
    result["condition"] = view["condition"]
    result["dice"] = [roll.model_dump(mode="json") for roll in event.dice.rolls]
    return result
