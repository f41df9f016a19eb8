"""A validation error as one line of bad input (the CLI's last resort for a model's error)."""

from __future__ import annotations

from pydantic import ValidationError

from ..domain.errors import in_words


def first_error(error: ValidationError) -> str:
    problem = error.errors()[0]
    where = ".".join(str(p) for p in problem["loc"])
    return f"{where} {in_words(problem)}" if where else in_words(problem)
