"""A rule action's inputs made from a command's values: a value the domain's model rejects is bad input
naming it, never a pydantic error."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ....domain.errors import BadInput

M = TypeVar("M", bound=BaseModel)


def inputs(model: type[M], **values: Any) -> M:
    """`model` from `values`, those that are None left to the model's defaults."""
    try:
        return model(**{key: value for key, value in values.items() if value is not None})
    except ValidationError as error:
        from . import problem

        raise BadInput(problem(error)) from None
