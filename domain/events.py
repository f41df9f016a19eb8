"""Event base classes: frozen pydantic models the eventsourcing library can mutate aggregates with.

Every event carries who recorded it (`by`) and a hash chain link: `hash` covers the event's own
content and `prev_hash`, the hash of the aggregate's previous event, so editing any stored byte
is detectable (`verify`).
"""

import hashlib
from datetime import datetime
from typing import Any, ClassVar, Protocol, Self
from uuid import UUID

import orjson
from eventsourcing.domain import CanInitAggregate, CanMutateAggregate
from eventsourcing.utils import get_topic
from pydantic import Field

from .dice import Dice, DiceRecord
from .model import Model, beyond_int64


class Signed(Model):
    """What a participant signed for this event: the command document they asked for (with the table's
    dice), a nonce, their key (`ed25519:BASE64`) and the Ed25519 signature (base64) over the canonical
    JSON (RFC 8785) of `{"campaign": ID, "document": ..., "nonce": ...}` (domain/participants.py)."""

    document: dict[str, Any]
    nonce: str
    key: str
    signature: str


def _unsigned(value: object) -> bool:
    return value is None


class DomainEvent(Model):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    by: str
    prev_hash: str = ""
    hash: str = ""
    origin: str | None = None  # in a forked timeline (replay --fork): the id of the original event
    # left out of an unsigned event's JSON: events recorded before signatures keep their bytes and hashes
    signed: Signed | None = Field(None, exclude_if=_unsigned)

    class_version: ClassVar[int] = 1

    def content_hash(self) -> str:
        """sha256 over the topic, prev_hash and every field except `hash` itself: as recorded, for
        an event upcast from an older class version (ledger/store/mapper.py keeps that content)."""
        recorded = (self.__pydantic_private__ or {}).get("_recorded")
        content = recorded or [get_topic(type(self)), self.model_dump(mode="json", exclude={"hash"})]
        payload = orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
        return hashlib.sha256(payload).hexdigest()

    def sealed(self) -> Self:
        """Seal this new event (not yet shared with anything: it changes in place) with its `hash`, keeping
        the JSON it was hashed from (minus its id and version) as its `stored_state()`: a new event is
        dumped once, not once more to be stored, and not copied to be sealed."""
        state = self.model_dump(mode="json")
        content = dict(state)
        del content["hash"]
        try:
            payload = orjson.dumps([get_topic(type(self)), content], option=orjson.OPT_SORT_KEYS)
        except TypeError:  # orjson stores no integer beyond 64 bits: one typed anywhere is bad input, never internal
            found = beyond_int64(content)
            if found is None:
                raise
            raise found from None
        digest = hashlib.sha256(payload).hexdigest()
        # In place: a new event no one holds yet (start, trigger_event); a sealed copy costs a model per append.
        self.__dict__["hash"] = state["hash"] = digest
        self.__pydantic_fields_set__.add("hash")
        del state["originator_id"], state["originator_version"]
        object.__setattr__(self, "__pydantic_private__", {"_stored": state})
        return self

    def unsealed(self) -> Self:
        """This new event, marked as made here and left without its hash (a replay's, never stored)."""
        object.__setattr__(self, "__pydantic_private__", {"_made": True})
        return self

    @property
    def made_here(self) -> bool:
        """Whether this event was made by this process (not read from a log)."""
        private = self.__pydantic_private__ or {}
        return "_stored" in private or "_made" in private

    def signed_with(self, prev_hash: str, signed: Signed, signed_state: dict[str, Any]) -> Self:
        """This new sealed event (not yet shared), signed with SIGNED (`signed_state` is its JSON) after
        `prev_hash`, and sealed again: from the JSON it was first sealed with, in its fields' order, with
        the signature in its place, rather than dumped again; one made unsealed (as a command's are: the
        ledger seals each event once, here) is sealed now."""
        kept = (self.__pydantic_private__ or {}).get("_stored")
        self.__dict__["prev_hash"], self.__dict__["signed"] = prev_hash, signed
        self.__pydantic_fields_set__.add("signed")
        if kept is None:
            return self.sealed()
        state: dict[str, Any] = {}
        for name in type(self).model_fields:
            if name == "signed":
                state[name] = signed_state
            elif name in kept:
                state[name] = kept[name]
        state.update((name, value) for name, value in kept.items() if name not in state)
        state["prev_hash"] = prev_hash
        content = {**state, "originator_id": str(self.originator_id), "originator_version": self.originator_version}
        del content["hash"]
        digest = hashlib.sha256(orjson.dumps([get_topic(type(self)), content], option=orjson.OPT_SORT_KEYS)).hexdigest()
        self.__dict__["hash"] = state["hash"] = digest
        object.__setattr__(self, "__pydantic_private__", {"_stored": state})
        return self

    def stored_state(self) -> dict[str, Any]:
        """`model_dump(mode="json")` without the id and version: what the ledger stores (not to be changed)."""
        kept = (self.__pydantic_private__ or {}).get("_stored")
        return (
            kept if kept is not None else self.model_dump(mode="json", exclude={"originator_id", "originator_version"})
        )


class Event(DomainEvent, CanMutateAggregate[UUID]):
    """An event that changes an existing aggregate."""

    # `Any` as in the library's own `apply`: an event made from None (`Created`) returns the aggregate its
    # `originator_topic` names, which no static type says.
    def mutate(self, aggregate: Any) -> Any:
        aggregate = super().mutate(aggregate)
        aggregate.head_hash = self.hash
        return aggregate


class Created(Event, CanInitAggregate[UUID]):
    originator_topic: str


class Evolving(Protocol):
    """What a decision changes (a `Character`, domain/character.py, which imports this module): its sheet and
    condition."""

    sheet: Any
    condition: Any


class Resolution(Event):
    """A decision: its inputs, dice and rulings derive its outcome (`derive`), and the outcome
    evolves the character (`evolve`). Subclasses (one per action, in each system's package)
    narrow `inputs` and `outcome` to their own models and implement both methods.

    `target`-less actions take the character's own sheet; actions between two characters copy
    what they need of the other one into `inputs`, so the event alone re-derives its outcome.
    """

    # The dice purposes `derive` may draw. A table result given for one of them that a derivation does
    # not need (no save when DR removes all damage) is ignored, so the table need not know in advance.
    # A purpose `name:key` (a hit's `save:2`, a winter's `experience:valorous`) is declared by `name`
    # or by `name:` (a family of keyed purposes only).
    PURPOSES: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def declares(cls, purpose: str) -> bool:
        family = purpose.partition(":")[0]
        return purpose in cls.PURPOSES or family in cls.PURPOSES or f"{family}:" in cls.PURPOSES

    inputs: Model
    rulings: dict[str, Any] = Field(default_factory=dict)
    dice: DiceRecord = DiceRecord()
    outcome: Model

    # Sheet, condition, inputs and rulings are `Any` here: each subclass takes its own system's models, which
    # no shared parameter type can admit (parameters are contravariant; see `systems.RuleSystem`).
    @classmethod
    def derive(cls, sheet: Any, condition: Any, inputs: Any, rulings: Any, dice: Dice) -> Model:
        raise NotImplementedError(f"{cls.__name__} does not define derive()")

    def evolve(self, sheet: Any, condition: Any) -> tuple[Model, Model]:
        raise NotImplementedError(f"{type(self).__name__} does not define evolve()")

    def apply(self, aggregate: Evolving) -> None:
        aggregate.sheet, aggregate.condition = self.evolve(aggregate.sheet, aggregate.condition)
