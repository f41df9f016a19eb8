"""Who sits at a campaign's table: participants, their roles and keys, as events on the campaign, and the
signature a participant puts on what they record.

A `gm` may record anything; a `player` records for the characters they play (rolls, wounds, rests,
checks, their own oaths and notes). A participant's key may be replaced (a lost phone) from that point
of the log on: every event is checked against the key its author had when it was recorded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .errors import BadInput, BadSignature, Forbidden
from .events import Event, Signed
from .text import printable

__all__ = ["Participant", "ParticipantRemoved", "ParticipantSet", "Signed", "authorise", "check_key"]

Role = Literal["gm", "player"]
KEY_PREFIX = "ed25519:"


def signed_message(campaign: str, document: dict[str, Any], nonce: str) -> dict[str, Any]:
    """The object whose canonical JSON a participant signs (`campaign` is the campaign's id)."""
    return {"campaign": campaign, "document": document, "nonce": nonce}


@dataclass(frozen=True)
class Participant:
    name: str
    role: Role
    plays: tuple[str, ...]
    key: str
    since: int  # the campaign's version when this key and role took effect

    def may_act_for(self, character: str | None) -> bool:
        if self.role == "gm":
            return True
        return character is not None and character.casefold() in {name.casefold() for name in self.plays}


class ParticipantSet(Event):
    """A participant joins, or changes role, characters or key, from this point of the log on."""

    name: str
    role: Role
    plays: list[str] = []
    key: str
    reason: str = ""

    def apply(self, aggregate: Any) -> None:
        participant = Participant(self.name, self.role, tuple(self.plays), self.key, self.originator_version)
        aggregate.participants = {**aggregate.participants, self.name: participant}


class ParticipantRemoved(Event):
    name: str
    reason: str

    def apply(self, aggregate: Any) -> None:
        aggregate.participants = {k: v for k, v in aggregate.participants.items() if k != self.name}


def check_key(key: str) -> str:
    """An `ed25519:BASE64` public key (32 bytes), as `identity show` prints it; anything else is bad input."""
    import base64
    import binascii

    if not key.startswith(KEY_PREFIX):
        raise BadInput(f"a key is written ed25519:BASE64 (as `chronicle identity show` prints it), not {key[:60]!r}")
    try:
        raw = base64.b64decode(key[len(KEY_PREFIX) :], validate=True)
    except binascii.Error:
        raw = b""
    if len(raw) != 32:
        raise BadInput("an ed25519 key is the base64 of 32 bytes")
    return key


def holder(participants: Mapping[str, Participant], key: str) -> Participant | None:
    """The participant whose current key is KEY."""
    return next((p for p in participants.values() if p.key == key), None)


def named(participants: Mapping[str, Participant], name: str) -> Participant | None:
    folded = name.casefold()
    return next((p for p in participants.values() if p.name.casefold() == folded), None)


def authorise(
    participants: Mapping[str, Participant],
    campaign: str,
    key: str,
    role: Role,
    character: str | None,
    command: str,
) -> Participant | None:
    """The participant KEY belongs to, allowed to run COMMAND (which needs ROLE, acting on CHARACTER);
    None when the campaign has no participants yet (a ledger from before them). A refusal says why."""
    if not participants:
        return None
    found = holder(participants, key)
    if found is None:
        raise BadSignature(
            f"the key {key} is no participant of campaign {printable(campaign)}: a gm adds it with "
            f"`chronicle participant add NAME --role player --key {key}`"
        )
    if role == "gm" and found.role != "gm":
        raise Forbidden(f"{found.name} is a player: {command} needs a gm of campaign {printable(campaign)}")
    if not found.may_act_for(character):
        if character is None:
            raise Forbidden(f"{found.name} is a player: {command} on the whole campaign needs a gm")
        raise Forbidden(
            f"{found.name} does not play {printable(character)}: a player records {command} only for the "
            "characters they play"
        )
    return found
