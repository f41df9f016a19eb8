"""A validation error as one line of bad input (the CLI's last resort for a model's error)."""

from __future__ import annotations

from pydantic import ValidationError


def first_error(error: ValidationError) -> str:
    problem = error.errors()[0]
    where = ".".join(str(p) for p in problem["loc"])
    return f"{where}: {problem['msg']}" if where else problem["msg"]
