"""What a participant's own device reads from the table view (`serve --writes`): who its key is in a
campaign and the actions that participant may take, an invitation's state, and which campaign a signed
write is for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

from ....domain.errors import BadInput, BadSignature, NotFound
from ..reply import Reply
from .base import Query, answers, field, required

if TYPE_CHECKING:
    from ....domain.participants import Participant
    from ..ledger import Ledger

JOIN = "participant join"


@dataclass(frozen=True, kw_only=True)
class ParticipantOf(Query):
    """Whose a key is in a campaign (name, role, characters), and the forms of the actions that
    participant may take in the campaign's system, as JSON Schemas (the command documents'), narrowed to
    the choices the sheets and rules know (ledger/application/choices.py): those acting through
    `character` when given, else the table-wide ones."""

    query: ClassVar[str] = "participant of key"
    campaign: str = required("The campaign's id.")
    key: str | None = field("The device's public key (ed25519:BASE64).")
    character: str | None = field("The character whose page asks: the forms acting through it.")


@dataclass(frozen=True, kw_only=True)
class InvitationState(Query):
    """An invitation's state (open, used, expired or unknown), whom it invites, to which campaign, and the
    page its participant goes to once joined."""

    query: ClassVar[str] = "invitation"
    token: str = required("The invitation's token (from its link).")


@dataclass(frozen=True, kw_only=True)
class SignedFor(Query):
    """The campaign a signed write is for: a join's, its invitation's; else the one the request names; else
    the one whose participant holds the key (or the ledger's only campaign)."""

    query: ClassVar[str] = "signed for"
    command: str = required("The command the document asks for.")
    invitation: str | None = field("A join's invitation token.")
    campaign: str | None = field("The campaign's id, as the request names it.")
    key: str = required("The key that signed the document.")


@answers(ParticipantOf)
def participant(ledger: Ledger, asked: ParticipantOf) -> Reply:
    from ....domain.participants import holder
    from ..choices import forms, table_of

    name, system = _known(ledger, asked.campaign)
    found = holder(ledger.session(name).campaign.participants, asked.key) if asked.key else None
    characters: list[str] = []
    table = table_of(ledger, asked.campaign)
    if asked.character is not None and table.named(asked.character) is None:
        raise NotFound(f"campaign {name} has no character {asked.character[:60]!r}")
    if found is not None:
        party = [who for _, who, _ in ledger.app.index.characters(UUID(asked.campaign))]
        characters = list(found.plays) if found.role == "player" else party
    document = {
        "campaign": {"id": asked.campaign, "name": name, "system": system},
        "participant": _participant(found),
        "characters": characters,
        "actions": [] if found is None else forms(table, found.role, found.plays, asked.character),
    }
    return Reply.of(document, found.name if found is not None else "No participant holds that key.")


def _known(ledger: Ledger, campaign: str) -> tuple[str, str]:
    index = ledger.app.index
    index.catch_up()
    found = index.campaign(campaign)
    if found is None:
        raise NotFound("this ledger has no campaign with that id")
    return found


def _participant(found: Participant | None) -> dict[str, Any] | None:
    return None if found is None else {"name": found.name, "role": found.role, "plays": list(found.plays)}


@answers(InvitationState)
def invitation(ledger: Ledger, asked: InvitationState) -> Reply:
    from ....domain.participants import invitation_hash
    from ...trust.invitations import invitation_book

    app = ledger.app
    found = invitation_book(app).find(invitation_hash(asked.token))
    if found is None:
        return Reply.of({"state": "unknown"}, "unknown")
    index = app.index
    index.catch_up()
    named = {ident: name for ident, name, _ in index.campaigns()}
    ids = {who: ident for ident, who, _ in index.characters(UUID(found.campaign))}
    playing = [ids[name] for name in found.plays if name in ids]
    state = "used" if found.used else "expired" if found.expires < datetime.now(UTC) else "open"
    document = {
        "state": state,
        "name": found.name,
        "role": found.role,
        "plays": list(found.plays),
        "campaign": named.get(found.campaign, ""),
        "campaign_id": found.campaign,
        "expires": found.expires.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "next": f"/character/{playing[0]}" if playing else "/",
    }
    return Reply.of(document, state)


@answers(SignedFor)
def signed_for(ledger: Ledger, asked: SignedFor) -> Reply:
    from ....domain.participants import holder, invitation_hash
    from ...trust.invitations import invitation_book

    app = ledger.app
    index = app.index
    index.catch_up()
    if asked.command == JOIN:
        token = asked.invitation
        invited = invitation_book(app).find(invitation_hash(token)) if token is not None else None
        found = index.campaign(invited.campaign) if invited is not None else None
        if invited is None or found is None:
            raise BadSignature("that invitation is none this server knows: ask the gm for a new link")
        return Reply.of({"id": invited.campaign, "name": found[0]}, found[0])
    if asked.campaign is not None:  # the one campaign named is read, not every one
        found = index.campaign(asked.campaign)
        if found is None:
            raise NotFound("this ledger has no campaign with that id")
        return Reply.of({"id": asked.campaign, "name": found[0]}, found[0])
    known = {ident: name for ident, name, _ in index.campaigns()}
    holding = [i for i, name in known.items() if holder(ledger.session(name).campaign.participants, asked.key)]
    if len(holding) != 1 and len(known) != 1:
        raise BadInput('say which campaign the write is for: "campaign": its id (each page gives it)')
    chosen = holding[0] if len(holding) == 1 else next(iter(known))
    return Reply.of({"id": chosen, "name": known[chosen]}, known[chosen])
