"""Base pydantic models shared by every part of the domain."""

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """Frozen, strict-keyed value object: what events are made of."""

    model_config = ConfigDict(extra="forbid", frozen=True)
