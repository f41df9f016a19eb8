"""Base pydantic models shared by every part of the domain."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

_set = object.__setattr__


class Model(BaseModel):
    """Frozen, strict-keyed value object: what events are made of."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def __eq__(self, other: object) -> bool:
        """Equal when of one type with equal fields: pydantic's check without what these models never have
        (generic origins, extra fields) or must not compare (what an event keeps of how it was stored).
        Re-derivation compares every outcome it makes with the recorded one."""
        return type(other) is type(self) and self.__dict__ == other.__dict__  # type: ignore[union-attr]

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any:
        """pydantic's shallow `model_copy`, without its generic `copy.copy` calls: every fold of an
        event copies a condition this way, and these models have no extra fields. Like pydantic's,
        `update` is trusted (not validated). Private attributes cache what this very instance was
        read or stored as (ledger/mapper.py, `DomainEvent.sealed`): a copy with changes has none."""
        if deep:
            return super().model_copy(update=update, deep=True)
        copied = object.__new__(type(self))
        _set(copied, "__dict__", {**self.__dict__, **update} if update else dict(self.__dict__))
        _set(copied, "__pydantic_extra__", None)
        _set(copied, "__pydantic_fields_set__", self.__pydantic_fields_set__ | update.keys() if update
             else set(self.__pydantic_fields_set__))
        private = self.__pydantic_private__
        _set(copied, "__pydantic_private__", None if private is None or update else dict(private))
        return copied
