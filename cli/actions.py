"""A resolution's inputs from a command's options, and a validation error as one line of bad input."""

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
