"""Who sits at a campaign's table: participants, their roles and keys, as events on the campaign, and the
signature a participant puts on what they record.

A `gm` may record anything; a `player` records for the characters they play (rolls, wounds, rests,
checks, their own oaths and notes). A participant's key may be replaced (a lost phone) from that point
of the log on: every event is checked against the key its author had when it was recorded.

An invitation (`participant invite`) is a gm's promise, in the log, of a place at the table: the hash of
a one-time token, the name, role and characters, and until when it holds. Whoever shows the token
(`participant join`, signed by the key they bring) becomes that participant with that key, once."""

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import Field

from .errors import BadInput, BadSignature, Forbidden
from .events import Event, Signed
from .text import printable

__all__ = [
    "Invitation",
    "Participant",
    "ParticipantInvited",
    "ParticipantRemoved",
    "ParticipantSet",
    "Signed",
    "authorise",
    "check_key",
    "invitation_hash",
    "invitations_of",
]

Role = Literal["gm", "player"]
KEY_PREFIX = "ed25519:"
INVITATION_HOLDS = timedelta(hours=24)  # how long an invitation may be taken up


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


def _absent(value: object) -> bool:
    return value is None


class ParticipantSet(Event):
    """A participant joins, or changes role, characters or key, from this point of the log on.
    `invitation`: the hash of the invitation whose token they showed (a join), which it uses up."""

    name: str
    role: Role
    plays: list[str] = []
    key: str
    reason: str = ""
    # left out of the JSON when absent: events recorded before invitations keep their bytes and hashes
    invitation: str | None = Field(None, exclude_if=_absent)

    def apply(self, aggregate: Any) -> None:
        if not stands(self, aggregate):
            return
        participant = Participant(self.name, self.role, tuple(self.plays), self.key, self.originator_version)
        aggregate.participants = {**aggregate.participants, self.name: participant}
        if self.invitation is not None:
            aggregate.invitations = {k: v for k, v in invitations_of(aggregate).items() if k != self.invitation}


@dataclass(frozen=True)
class Invitation:
    name: str
    role: Role
    plays: tuple[str, ...]
    expires: datetime
    by: str  # the gm who invited


class ParticipantInvited(Event):
    """A gm invites NAME (a role, the characters they will play): whoever shows the token whose SHA-256 is
    `invitation` before `expires` joins as them, once."""

    name: str
    role: Role
    plays: list[str] = []
    invitation: str  # the hex SHA-256 of the one-time token (the token itself is never recorded)
    expires: datetime

    def apply(self, aggregate: Any) -> None:
        if not stands(self, aggregate):
            return
        invitation = Invitation(self.name, self.role, tuple(self.plays), self.expires, self.by)
        aggregate.invitations = {**invitations_of(aggregate), self.invitation: invitation}


def invitations_of(campaign: Any) -> Mapping[str, Invitation]:
    """The campaign's invitations not yet taken up (expired ones too), by their token's hash."""
    found: Mapping[str, Invitation] = getattr(campaign, "invitations", {})
    return found


def invitation_hash(token: str) -> str:
    """How a token is recorded: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class ParticipantRemoved(Event):
    name: str
    reason: str

    def apply(self, aggregate: Any) -> None:
        if not stands(self, aggregate):
            return
        aggregate.participants = {k: v for k, v in aggregate.participants.items() if k != self.name}


def stands(event: Event, campaign: Any) -> bool:
    """Whether a change of the campaign's participants counts: signed by a gm of that moment, or a join signed by
    the key it makes with an invitation still open then; in a campaign with no participants yet (a ledger from
    before them), signed by anyone. An unsigned one counts only as its command decides it, before it is signed
    (every event a command records is signed with it): one stored unsigned, or signed by a player, changes
    nothing (`verify` names it)."""
    signed = event.signed
    if signed is None:
        return event.made_here
    participants: Mapping[str, Participant] = campaign.participants
    if not participants:
        return True
    signer = holder(participants, signed.key)
    if signer is not None and signer.role == "gm":
        return True
    if isinstance(event, ParticipantSet) and event.invitation is not None:
        invited = invitations_of(campaign).get(event.invitation)
        return invited is not None and signed.key == event.key and event.timestamp <= invited.expires
    return False


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
