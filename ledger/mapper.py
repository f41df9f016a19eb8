"""Storing pydantic events: JSON via orjson, with class_version upcasting (library issue #302)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder, Transcoding
from eventsourcing.utils import get_topic, resolve_topic

if TYPE_CHECKING:  # only for annotations: importing pydantic's BaseModel at run time would slow every `show`
    from eventsourcing.application import Application
    from pydantic import BaseModel

    from ..domain.events import Event


class OrjsonTranscoder(Transcoder):
    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj)

    def decode(self, data: bytes) -> Any:
        return orjson.loads(data)

    def register(self, _: Transcoding) -> None:
        raise NotImplementedError("events are pydantic models; nothing to register")


class StoredRow(Protocol):
    """What decoding needs of a stored event: the library's `StoredEvent`, or a row as ledger/history.py reads it."""

    @property
    def originator_id(self) -> UUID | str: ...

    @property
    def originator_version(self) -> int: ...

    @property
    def topic(self) -> str: ...

    @property
    def state(self) -> bytes: ...


class PydanticMapper(Mapper):
    """Stores `model_dump(mode="json")` (plus `class_version` when > 1); on load, upcasts
    `upcast_vN_vN+1(state)` until the class's current version, then validates."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        stored = getattr(domain_event, "stored_state", None)  # events keep theirs; snapshots are dumped
        state = (
            stored()
            if stored
            else domain_event.model_dump(mode="json", exclude={"originator_id", "originator_version"})
        )
        version = getattr(type(domain_event), "class_version", 1)
        if version > 1:
            state = {**state, "class_version": version}
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=self._seal(self.transcoder.encode(state)),
        )

    def to_domain_event(self, stored: StoredRow) -> Any:  # an event, or a snapshot (ledger/snapshots.py)
        data = self._unseal(stored.state)
        cls = resolve_topic(stored.topic)
        if getattr(cls, "class_version", 1) == 1 and b'"class_version"' not in data:  # nothing to upcast
            return cls.model_validate_json(envelope(stored.originator_id, stored.originator_version) + data[1:])
        return event_from_state(
            stored.topic, stored.originator_id, stored.originator_version, self.transcoder.decode(data)
        )

    def decode_state(self, data: bytes) -> dict[str, Any]:
        return self.transcoder.decode(self._unseal(data))

    def state_decoder(self) -> Callable[[bytes], dict[str, Any]]:
        """`decode_state` as one call: `orjson.loads` itself when states are stored unsealed (bulk
        reads decode every event, each through three Python calls before)."""
        plain = not (self.cipher or self.compressor) and type(self.transcoder).decode is OrjsonTranscoder.decode
        return orjson.loads if plain else self.decode_state

    def _unseal(self, data: bytes) -> bytes:
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        return data

    def _seal(self, data: bytes) -> bytes:
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return data


def mapper_of(app: Application) -> PydanticMapper:
    """The application's mapper as `Chronicle.construct_mapper` makes it (the library types it as its `Mapper`)."""
    return cast(PydanticMapper, app.mapper)


def envelope(originator_id: UUID | str, version: int) -> bytes:
    """The start of an event's JSON with its id and version, to which the stored state's fields
    (after its opening brace) are appended: pydantic then validates the stored bytes directly,
    without building a dict first (a third of the cost of loading an event)."""
    return b'{"originator_id":"%s","originator_version":%d,' % (str(originator_id).encode(), version)


def upcast(cls: type[BaseModel], state: dict[str, Any]) -> None:
    version = state.pop("class_version", 1)
    while version < getattr(cls, "class_version", 1):
        getattr(cls, f"upcast_v{version}_v{version + 1}")(state)
        version += 1


def event_from_state(
    topic: str, originator_id: UUID | str, version: int, state: dict[str, Any], folding: bool = False
) -> Any:
    """The domain event a stored (or exported) state describes, upcast to its class's current
    version (`state` itself is left as it is: read models share a page's decoded states).
    `folding`: only to be folded into a read model, which needs what the event decided, not the
    dice it was decided with: an optional dice record is left out (a fifth of the validation)."""
    cls = resolve_topic(topic)
    current, dice_optional = _folding_facts(cls)
    data = dict(state)
    stored = data.pop("class_version", 1)
    stale = stored < current
    recorded = recorded_content(topic, originator_id, version, state) if stale else None
    if stale:
        data["class_version"] = stored
        upcast(cls, data)
    data["originator_id"], data["originator_version"] = originator_id, version
    if folding and dice_optional:
        data.pop("dice", None)
    event = cls.__pydantic_validator__.validate_python(data)  # `validate`, inline: a fold makes one an event
    if stale:
        keep_recorded(event, recorded)  # type: ignore[arg-type]
    return event


@functools.cache
def _folding_facts(cls: type[BaseModel]) -> tuple[int, bool]:
    """An event class's current version, and whether its dice record is optional."""
    field = cls.model_fields.get("dice")
    return getattr(cls, "class_version", 1), field is not None and not field.is_required()


def checked_event(
    topic: str, originator_id: UUID | str, version: int, state: dict[str, Any], originator_text: str | None = None
) -> tuple[Event, str]:
    """The event a stored (or exported) state describes, and the sha256 of its content as recorded
    (what its `hash` must be, as `content_hash` computes it): what a verifier needs of each event,
    from one copy of the state. `originator_text` is `str(originator_id)`, when the caller has it."""
    cls = resolve_topic(topic)
    data = dict(state)
    recorded_hash = data.pop("hash", "")
    stored_version = data.pop("class_version", 1)
    data["originator_id"] = originator_text or str(originator_id)
    data["originator_version"] = version
    digest = hashlib.sha256(orjson.dumps([topic, data], option=orjson.OPT_SORT_KEYS)).hexdigest()
    if stored_version < getattr(cls, "class_version", 1):
        return event_from_state(topic, originator_id, version, state), digest
    data["hash"], data["originator_id"] = recorded_hash, originator_id
    return validate(cls, data), digest


def validate(cls: type[BaseModel], data: dict[str, Any]) -> Any:
    """`cls.model_validate(data)` straight through pydantic-core's validator: the same checks, without
    the Python wrapper's argument handling (an eighth of an event's validation; bulk work does one an event)."""
    return cls.__pydantic_validator__.validate_python(data)


def recorded_content(topic: str, originator_id: UUID | str, version: int, state: dict[str, Any]) -> list[Any]:
    """What an event's hash was computed over when it was recorded (its topic and fields then)."""
    body = {k: v for k, v in state.items() if k not in ("hash", "class_version")}
    body.update(originator_id=str(originator_id), originator_version=version)
    return [topic, body]


def keep_recorded(event: BaseModel, recorded: list[Any]) -> None:
    """An upcast event keeps the content it was hashed over, so `verify` checks the stored bytes
    (an upcast adds or renames fields, which would otherwise look like tampering)."""
    private = dict(event.__pydantic_private__ or {})
    private["_recorded"] = recorded
    object.__setattr__(event, "__pydantic_private__", private)
