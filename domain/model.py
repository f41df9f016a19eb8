"""Base pydantic models shared by every part of the domain.

The modules that define the models a write loads evaluate their annotations when the class is made
(no `from __future__ import annotations`; a name defined later is quoted): postponed ones are strings
pydantic must compile, some 1,200 of them in a one-shot append (8-10 ms of its start)."""

from collections.abc import Mapping
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler, GetPydanticSchema
from pydantic_core import core_schema

from .errors import BadInput
from .limits import INT64_LIMIT as INT64_LIMIT  # re-exported
from .limits import INT64_MAX as INT64_MAX
from .limits import INT64_MIN as INT64_MIN

_set = object.__setattr__

# Every integer the ledger keeps fits 64 bits (the JSON it stores and SQL read no more);
# a bigger one typed anywhere is bad input that names this limit (domain/limits.py), never an internal error.


def within_int64(value: int, what: str) -> int:
    """`value` if it fits 64 bits, else `BadInput` naming `what` and the limit (not the number: it may be huge)."""
    if not INT64_MIN <= value <= INT64_MAX:
        raise BadInput(f"{what} is beyond {INT64_LIMIT}")
    return value


def beyond_int64(data: object, where: str = "") -> BadInput | None:
    """Bad input naming the first integer in `data` (an event's JSON form: mappings, lists) beyond 64 bits,
    e.g. "inputs.damage is beyond the 64-bit limit (...)"; None when every integer fits."""
    if isinstance(data, int) and not isinstance(data, bool):
        return None if INT64_MIN <= data <= INT64_MAX else BadInput(f"{where or 'a number'} is beyond {INT64_LIMIT}")
    items = data.items() if isinstance(data, Mapping) else enumerate(data) if isinstance(data, (list, tuple)) else ()
    for key, value in items:
        found = beyond_int64(value, f"{where}.{key}" if where else str(key))
        if found is not None:
            return found
    return None


def _int64_schema(source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
    """pydantic-core's own int check with the bounds, its every error (huge, not a number) in one message."""
    return core_schema.custom_error_schema(
        core_schema.int_schema(ge=INT64_MIN, le=INT64_MAX),
        custom_error_type="int64",
        custom_error_message=f"must be a whole number within {INT64_LIMIT}",
    )


Int64 = Annotated[int, GetPydanticSchema(_int64_schema)]
"""An `int` field within 64 bits: a model validating a bigger one fails with a one-line message naming the
limit (the CLI makes any `ValidationError` bad input, exit 2). Use it for every integer a person can type."""


class Model(BaseModel):
    """Frozen, strict-keyed value object: what events are made of."""

    # defer_build: a model builds its validator when first used, so a command pays only for the models it uses
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    def __eq__(self, other: object) -> bool:
        """Equal when of one type with equal fields: pydantic's check without what these models never have
        (generic origins, extra fields) or must not compare (what an event keeps of how it was stored).
        Re-derivation compares every outcome it makes with the recorded one."""
        return type(other) is type(self) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's shallow `model_copy`, without its generic `copy.copy` calls: every fold of an
        event copies a condition this way, and these models have no extra fields. Like pydantic's,
        `update` is trusted (not validated). Private attributes cache what this very instance was
        read or stored as (ledger/store/mapper.py, `DomainEvent.sealed`): a copy with changes has none."""
        if deep:
            return super().model_copy(update=update, deep=True)
        # A new instance filled before anyone holds it, as pydantic's own copy does: no frozen model is changed.
        copied = object.__new__(type(self))
        _set(copied, "__dict__", {**self.__dict__, **update} if update else dict(self.__dict__))
        _set(copied, "__pydantic_extra__", None)
        _set(
            copied,
            "__pydantic_fields_set__",
            self.__pydantic_fields_set__ | update.keys() if update else set(self.__pydantic_fields_set__),
        )
        private = self.__pydantic_private__
        _set(copied, "__pydantic_private__", None if private is None or update else dict(private))
        return copied
