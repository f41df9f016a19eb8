"""Storing pydantic events: JSON via orjson, with class_version upcasting."""

from __future__ import annotations

import copy
import functools
import hashlib
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder, Transcoding
from eventsourcing.utils import get_topic, resolve_topic

from ...domain.errors import BadInput
from ...domain.text import printable

if TYPE_CHECKING:  # only for annotations: importing pydantic's BaseModel at run time would slow every `show`
    from eventsourcing.application import Application
    from pydantic import BaseModel

    from ...domain.events import Event


class OrjsonTranscoder(Transcoder):
    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj)

    def decode(self, data: bytes) -> Any:
        return orjson.loads(data)

    def register(self, _: Transcoding) -> None:
        raise NotImplementedError("events are pydantic models; nothing to register")


class StoredRow(Protocol):
    """What decoding needs of a stored event: the library's `StoredEvent`, or a row as
    ledger/application/views/history.py reads it."""

    @property
    def originator_id(self) -> UUID | str: ...

    @property
    def originator_version(self) -> int: ...

    @property
    def topic(self) -> str: ...

    @property
    def state(self) -> bytes: ...


# What a stored topic may name: resolving a topic imports the module it names, so a
# topic is resolved only once it is known to name one of chronicle's own classes of the kind expected.
EVENT, AGGREGATE, SNAPSHOT = "event", "aggregate", "snapshot"
_DOMAIN = __name__.split(".")[0] + ".domain"  # chronicle.domain
_known: dict[str, str | None] = {}  # topic -> its kind (None: not one of chronicle's), found once a process
_MOST_UNKNOWN = 10_000  # unknown topics remembered (a forged log may hold any number of them)
_WHAT = {EVENT: "an event naming", SNAPSHOT: "a snapshot naming", AGGREGATE: "an event whose aggregate is named"}


class UnknownTopic(BadInput):
    """A stored row names a class that is not one of chronicle's (of the kind expected): never resolved."""

    code = "unknown_event"

    def __init__(self, topic: str, kind: str = EVENT):
        self.topic, self.kind = topic, kind
        shown = printable(topic if len(topic) <= 100 else topic[:100] + "...")
        super().__init__(
            f"the ledger holds {_WHAT[kind]} {shown}, which is not one of chronicle's {kind} classes: nothing"
            " was read (the database was edited, or written by another program); `chronicle verify` names where"
        )

    def __reduce__(self) -> tuple[type[UnknownTopic], tuple[str, str]]:
        """Rebuilt from its topic, not its message, when a worker process hands it back (import, verify)."""
        return type(self), (self.topic, self.kind)


def topic_kind(topic: str) -> str | None:
    """Which of chronicle's kinds of class `topic` names (EVENT, AGGREGATE or SNAPSHOT), or None: a dict
    lookup once a topic has been seen. Only chronicle's domain modules are ever imported to find out;
    any other topic must name a class already loaded (a snapshot's, or a test's event)."""
    try:
        return _known[topic]
    except KeyError:
        found = _kind_of(topic)
        if found is not None or len(_known) < _MOST_UNKNOWN:
            _known[topic] = found
        return found


def resolved(topic: str, *kinds: str) -> Any:  # a class: `Any`, as its own methods differ by kind
    """The class `topic` names, when it is one of chronicle's classes of one of these kinds; else
    `UnknownTopic`, and nothing is imported."""
    if topic_kind(topic) not in kinds:
        raise UnknownTopic(topic, kinds[0])
    return resolve_topic(topic)


LEGACY_SNAPSHOT_TOPIC = "chronicle.ledger.snapshots:CharacterSnapshot"


def _kind_of(topic: str) -> str | None:
    from ...domain.aggregate import Aggregate
    from ...domain.events import DomainEvent
    from .snapshots import CharacterSnapshot

    module, _, name = topic.partition(":")
    found: object = None
    if module.startswith(_DOMAIN + ".") and all(p.isidentifier() for p in (*module.split("."), *name.split("."))):
        try:  # one of chronicle's domain modules (an old topic's too: domain/pendragon/legacy_topics.py)
            found = importlib.import_module(module)
            for part in name.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            found = None
    elif topic == LEGACY_SNAPSHOT_TOPIC:  # where snapshots were stored from before ledger/ had sub-packages
        found = CharacterSnapshot
    else:  # a class defined elsewhere: only one already loaded, found among the bases' subclasses
        found = next(
            (cls for cls in _loaded((DomainEvent, Aggregate, CharacterSnapshot)) if _topic(cls) == topic), None
        )
    if not isinstance(found, type):
        return None
    if found is CharacterSnapshot:
        return SNAPSHOT
    if issubclass(found, DomainEvent):
        return EVENT
    return AGGREGATE if issubclass(found, Aggregate) else None


def _loaded(bases: tuple[type, ...]) -> list[type]:
    found, classes = [], list(bases)
    while classes:
        cls = classes.pop()
        found.append(cls)
        classes.extend(cls.__subclasses__())
    return found


def _topic(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"  # as `get_topic` writes it, without registering it


class PydanticMapper(Mapper):
    """Stores `model_dump(mode="json")` (plus `class_version` when > 1); on load, upcasts
    `upcast_vN_vN+1(state)` until the class's current version, then validates. It reads only
    chronicle's own classes: events (`kinds`; a snapshot store's mapper reads snapshots), and a
    creation's or a snapshot's aggregate."""

    kinds: tuple[str, ...] = (EVENT,)

    def for_snapshots(self) -> PydanticMapper:
        """This mapper, reading snapshots instead of events (ledger/store/snapshots.py)."""
        found = copy.copy(self)
        found.kinds = (SNAPSHOT,)
        return found

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

    def to_domain_event(self, stored: StoredRow) -> Any:  # an event, or a snapshot (ledger/store/snapshots.py)
        try:
            data = self._unseal(stored.state)
        except ValueError:  # the cipher's refusal: another key's event (or a damaged one)
            raise self.unreadable() from None
        if not self.cipher and data[:1] != b"{":  # ciphertext, read without a key
            raise self.unreadable()
        cls = resolved(stored.topic, *self.kinds)
        if getattr(cls, "class_version", 1) == 1 and b'"class_version"' not in data:  # nothing to upcast
            found = cls.model_validate_json(envelope(stored.originator_id, stored.originator_version) + data[1:])
            names = _names_aggregate(cls)
            if names is not None:
                resolved(getattr(found, names), AGGREGATE)
            return found
        return event_from_state(
            stored.topic,
            stored.originator_id,
            stored.originator_version,
            self.transcoder.decode(data),
            kinds=self.kinds,
        )

    def unreadable(self) -> BadInput:
        """Why a stored state this process cannot decode is refused: its key, or the lack of one, is not
        the ledger's (a process that lost a race to write a fresh ledger's first event reads the winner's)."""
        from .sealing import unreadable  # (ledger/store/sealing.py's words for it)

        return BadInput(f"cannot read this ledger: {unreadable(self.cipher is not None)}")

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


@functools.cache
def _names_aggregate(cls: type) -> str | None:
    """The field of `cls` naming an aggregate class, which is resolved when the event is folded: a
    creation's `originator_topic`, a snapshot's `topic`; None for any other event."""
    fields = getattr(cls, "model_fields", {})
    if "originator_topic" in fields:
        return "originator_topic"
    return "topic" if topic_kind(_topic(cls)) == SNAPSHOT else None


def _checked_aggregate(cls: type, state: dict[str, Any]) -> None:
    """Refuse a state whose creation (or snapshot) names an aggregate that is not one of chronicle's."""
    names = _names_aggregate(cls)
    if names is not None and isinstance(state.get(names), str):
        resolved(state[names], AGGREGATE)


def event_from_state(
    topic: str,
    originator_id: UUID | str,
    version: int,
    state: dict[str, Any],
    folding: bool = False,
    kinds: tuple[str, ...] = (EVENT,),
) -> Any:
    """The domain event a stored (or exported) state describes, upcast to its class's current
    version (`state` itself is left as it is: read models share a page's decoded states).
    `folding`: only to be folded into a read model, which needs what the event decided, not the
    dice it was decided with: an optional dice record is left out (a fifth of the validation).
    A topic (or a creation's aggregate) that is not one of chronicle's is `UnknownTopic`."""
    cls = resolved(topic, *kinds)
    _checked_aggregate(cls, state)
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
    cls = resolved(topic, EVENT)
    _checked_aggregate(cls, state)
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
