"""Storing pydantic events: JSON via orjson, with class_version upcasting (library issue #302)."""

from __future__ import annotations

from typing import Any

import orjson
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder, Transcoding
from eventsourcing.utils import get_topic, resolve_topic
from pydantic import BaseModel


class OrjsonTranscoder(Transcoder):
    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj)

    def decode(self, data: bytes) -> Any:
        return orjson.loads(data)

    def register(self, _: Transcoding) -> None:
        raise NotImplementedError("events are pydantic models; nothing to register")


class PydanticMapper(Mapper):
    """Stores `model_dump(mode="json")` (plus `class_version` when > 1); on load, upcasts
    `upcast_vN_vN+1(state)` until the class's current version, then validates."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        state = domain_event.model_dump(mode="json", exclude={"originator_id", "originator_version"})
        version = getattr(type(domain_event), "class_version", 1)
        if version > 1:
            state["class_version"] = version
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=self._seal(self.transcoder.encode(state)),
        )

    def to_domain_event(self, stored: StoredEvent) -> Any:
        state = self.decode_state(stored.state)
        cls = resolve_topic(stored.topic)
        upcast(cls, state)
        return cls(originator_id=stored.originator_id, originator_version=stored.originator_version, **state)

    def decode_state(self, data: bytes) -> dict[str, Any]:
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        return self.transcoder.decode(data)

    def _seal(self, data: bytes) -> bytes:
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return data


def upcast(cls: type[BaseModel], state: dict[str, Any]) -> None:
    version = state.pop("class_version", 1)
    while version < getattr(cls, "class_version", 1):
        getattr(cls, f"upcast_v{version}_v{version + 1}")(state)
        version += 1
