"""Who may record in a campaign: participants, their roles, the characters a player plays, their keys."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ....domain.errors import BadInput, NotFound, Refusal
from ....domain.participants import ParticipantRemoved, ParticipantSet, check_key, named
from ....domain.text import check_text, normalise_name, printable
from ..session import Session
from .base import Command, Reply, handles


class ParticipantAdd(Command):
    """Add a participant (or change one's role, characters or key, from this point of the log on)."""

    command = "participant add"
    name: str = Field(description="The participant's name.")
    role_: Literal["gm", "player"] = Field(  # (`role` says who may run a command)
        alias="role", description="gm records anything; a player, for their characters."
    )
    plays: list[str] = Field([], description="The characters a player records for.")
    key: str | None = Field(None, description="Their public key, ed25519:BASE64 (`chronicle identity show`).")


@handles(ParticipantAdd)
def participant_add(session: Session, command: ParticipantAdd) -> Reply:
    campaign = session.campaign
    name = normalise_name(command.name, "participant name")
    known = named(campaign.participants, name)
    key = check_key(command.key) if command.key else (known.key if known else None)
    if key is None:
        raise BadInput(
            f"{printable(name)} needs a key: --key ed25519:BASE64, as their `chronicle identity show` prints"
        )
    holder = next((p for p in campaign.participants.values() if p.key == key and p is not known), None)
    if holder is not None:
        raise Refusal(f"that key is {printable(holder.name)}'s already")
    plays = [session.character(character).name for character in command.plays]
    campaign.trigger_event(
        ParticipantSet,
        name=known.name if known else name,
        role=command.role_,
        plays=plays,
        key=key,
        by=session.by,
        timestamp=session.now(),
    )
    result = {
        "event": campaign.last_event_id,
        "version": campaign.version,
        "name": known.name if known else name,
        "role": command.role_,
        "plays": plays,
        "key": key,
    }
    playing = f", playing {', '.join(plays)}" if plays else ""
    verb = "now" if known else "joins as"
    return Reply.of(result, f"{result['name']} {verb} {command.role_}{playing}.  [event {result['event']}]")


class ParticipantRemove(Command):
    """Remove a participant: their key signs nothing more in this campaign."""

    command = "participant remove"
    name: str = Field(description="The participant.")
    reason: str = Field(description="Why (kept in the log).")


@handles(ParticipantRemove)
def participant_remove(session: Session, command: ParticipantRemove) -> Reply:
    campaign = session.campaign
    found = named(campaign.participants, command.name)
    if found is None:
        raise NotFound(f"campaign {printable(campaign.name)} has no participant named {printable(command.name)}")
    if found.role == "gm" and sum(p.role == "gm" for p in campaign.participants.values()) == 1:
        raise Refusal(f"{printable(found.name)} is the campaign's only gm: add another gm first")
    reason = check_text(command.reason, "the reason")
    if not reason.strip():
        raise BadInput("--reason must say why")
    campaign.trigger_event(ParticipantRemoved, name=found.name, reason=reason, by=session.by, timestamp=session.now())
    result = {"event": campaign.last_event_id, "version": campaign.version, "name": found.name, "reason": reason}
    return Reply.of(result, f"{found.name} no longer takes part: {reason}.  [event {result['event']}]")
