"""Inviting a participant with a one-time link, and joining by it from another device.

`participant invite` (a gm) records the hash of a fresh token, the name, role and characters, and until
when it holds; its reply carries the token, in the link `serve --writes` answers (`/join/TOKEN`). The
device that opens the link signs `participant join` with a key of its own: it needs no participant's key
(the invitation is its authority), and records that key as the invited participant's, once."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ....domain.errors import BadInput, BadSignature, Refusal
from ....domain.participants import (
    INVITATION_HOLDS,
    ParticipantInvited,
    ParticipantSet,
    check_key,
    invitation_hash,
    invitations_of,
    named,
)
from ....domain.text import normalise_name, printable
from ...trust.invitations import Invitation
from ..session import Session
from .base import Command, Reply, handles

SERVED = "http://127.0.0.1:8765"  # `chronicle serve`'s own default, when no `serve --writes` noted its address


class ParticipantInvite(Command):
    """Invite NAME to record from their own device: a link that works once, for 24 hours, on the address
    `chronicle serve --writes` listens on; the device that opens it becomes NAME's key."""

    command = "participant invite"
    name: str = Field(description="Whom to invite.")
    role_: Literal["gm", "player"] = Field(  # (`role` says who may run a command)
        "player", alias="role", description="Their role once joined."
    )
    plays: list[str] = Field([], description="The characters the player will record for.")
    url: str | None = Field(
        None,
        description="The server's address as the table reaches it (default: where `serve --writes` last listened).",
    )


@handles(ParticipantInvite)
def participant_invite(session: Session, command: ParticipantInvite) -> Reply:
    campaign = session.campaign
    name = normalise_name(command.name, "participant name")
    known = named(campaign.participants, name)
    name = known.name if known else name
    plays = [session.character(character).name for character in command.plays]
    book = session.invitation_book()
    base = (command.url or book.address() or SERVED).rstrip("/")
    if not base.startswith(("http://", "https://")) or any(c.isspace() for c in base):
        raise BadInput(f"--url is the server's address, http://HOST:PORT or https://..., not {printable(base)}")
    token, hashed = session.new_invitation()
    now = session.now()
    expires = now + INVITATION_HOLDS
    campaign.trigger_event(
        ParticipantInvited,
        name=name,
        role=command.role_,
        plays=plays,
        invitation=hashed,
        expires=expires,
        by=session.by,
        timestamp=now,
    )
    book.open(Invitation(hashed, str(campaign.id), name, command.role_, tuple(plays), expires, False))
    url = f"{base}/join/{token}"
    result = {
        "event": campaign.last_event_id,
        "version": campaign.version,
        "name": name,
        "role": command.role_,
        "plays": plays,
        "expires": expires.isoformat(),
        "url": url,
    }
    playing = f", playing {', '.join(plays)}" if plays else ""
    return Reply.of(
        result,
        f"{name} is invited as {'a gm' if command.role_ == 'gm' else 'a player'}{playing}. Open this link on their "
        f"own device within 24 hours; it works once:\n{url}",
    )


class ParticipantJoin(Command):
    """Join a campaign by an invitation: the key that signs this becomes the invited participant's."""

    command = "participant join"
    opens_campaign = True  # asked by no participant yet: the invitation is its authority
    invitation: str = Field(description="The token of the invitation's link (/join/TOKEN).")


@handles(ParticipantJoin)
def participant_join(session: Session, command: ParticipantJoin) -> Reply:
    campaign = session.campaign
    hashed = invitation_hash(command.invitation)
    invited = invitations_of(campaign).get(hashed)
    if invited is None:
        raise BadSignature(
            f"that invitation is no open invitation of campaign {printable(campaign.name)} (it may have been "
            "used already): ask the gm for a new one"
        )
    now = session.now()
    if now > invited.expires:
        raise Refusal(f"that invitation expired at {invited.expires:%Y-%m-%d %H:%M} UTC: ask the gm for a new one")
    key = check_key(session.key)
    known = named(campaign.participants, invited.name)
    holder = next((p for p in campaign.participants.values() if p.key == key and p is not known), None)
    if holder is not None:
        raise Refusal(f"that key belongs to {printable(holder.name)} already")
    name = known.name if known else invited.name
    session.by = name
    campaign.trigger_event(
        ParticipantSet,
        name=name,
        role=invited.role,
        plays=list(invited.plays),
        key=key,
        invitation=hashed,
        by=name,
        timestamp=now,
    )
    session.invitation_book().use(hashed)
    result = {
        "event": campaign.last_event_id,
        "version": campaign.version,
        "campaign": campaign.name,
        "id": str(campaign.id),
        "name": name,
        "role": invited.role,
        "plays": list(invited.plays),
        "key": key,
    }
    playing = f", playing {', '.join(invited.plays)}" if invited.plays else ""
    role = "a gm" if invited.role == "gm" else "a player"
    return Reply.of(result, f"{name} joins campaign {campaign.name} as {role}{playing}, with this device's key.")
