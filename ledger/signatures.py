"""What `verify` checks of signatures: each one against its document, nonce, campaign and key (in the
workers, event by event), then, in log order, that the key was its author's at that point of the log
and that the author's role allowed the command (the participants as they were then).

A join (`participant join`) is signed by a key no participant holds yet: its authority is an invitation a
gm recorded before it. It stands when the token it shows hashes to an invitation still open then (not
taken up, not expired), and its event makes exactly that invitation's participant, with the signing key."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast
from uuid import UUID

from ..domain.campaign import CampaignStarted
from ..domain.errors import ChronicleError
from ..domain.events import DomainEvent
from ..domain.participants import (
    INVITATION_HOLDS,
    Participant,
    ParticipantInvited,
    ParticipantRemoved,
    ParticipantSet,
    Role,
    authorise,
    invitation_hash,
)
from .signing import valid

JOIN = "participant join"
INVITED = "invitation"  # a join's role in `signers`, its "character" the hash of the token it shows

Invitations = dict[str, dict[str, Any]]  # open invitations' events, by their token's hash


class SignatureCheck:
    """One share's part: every signature checked, and what the log-order check needs kept, compactly."""

    def __init__(self, campaign_id: UUID, system: str | None):
        self.campaign_id, self.system = campaign_id, system
        self.unsigned = 0
        self.signers: list[
            tuple[int, str, str, str, str | None, str]
        ] = []  # (position, by, key, role, character, command)
        self.changes: list[tuple[int, str, dict[str, Any]]] = []  # the campaign's participant events

    def feed(self, position: int, event: DomainEvent) -> str | None:
        """A problem with EVENT's signature, or None; keeps what the log-order check needs."""
        participants = (ParticipantSet, ParticipantRemoved, ParticipantInvited)
        if isinstance(event, participants) and event.originator_id == self.campaign_id:
            self.changes.append((position, type(event).__name__, event.model_dump(mode="json")))
        elif isinstance(event, CampaignStarted) and event.gm_key is not None:  # its creator, the first gm
            creator = {"name": event.by, "role": "gm", "plays": [], "key": event.gm_key}
            self.changes.append((position, ParticipantSet.__name__, creator))
        signed = event.signed
        if signed is None:
            self.unsigned += 1
            return None
        if not valid(signed, self.campaign_id):
            self.signers.append((position, event.by, signed.key, "invalid", None, ""))
            return f"the signature by {signed.key} (recorded by {event.by}) does not verify: the event was changed"
        role, character, command = _asked(signed.document, self.system)
        self.signers.append((position, event.by, signed.key, role, character, command))
        return None

    def report(self) -> dict[str, Any]:
        return {"unsigned": self.unsigned, "signers": self.signers, "changes": self.changes}


def _asked(document: dict[str, Any], system: str | None) -> tuple[str, str | None, str]:
    """(the role the document's command needs, the character it acts on, its name)."""
    from . import commands

    name = str(document.get("command", ""))
    if name == JOIN:
        token = document.get("invitation")
        return INVITED, invitation_hash(token) if isinstance(token, str) else "", name
    try:
        model = commands.model_for(name, system)
    except ChronicleError:
        return "gm", None, name  # a command this chronicle does not know: only a gm's signature may stand
    key = model.character
    if key is not None:
        field = model.model_fields.get(key)
        key = (field.alias if field is not None and field.alias else key) if field is not None else key
    character = document.get(key) if key else None
    return model.role, character if isinstance(character, str) else None, name


def in_log_order(reports: list[dict[str, Any]], campaign: str, require: bool) -> tuple[int, int, list[dict[str, Any]]]:
    """(signed, unsigned, problems): every signature's key and role against the participants as they
    were at its position; with `require`, an unsigned event is a problem too."""
    signers = sorted(s for report in reports for s in report["signers"])
    changes = sorted(c for report in reports for c in report["changes"])
    unsigned = sum(report["unsigned"] for report in reports)
    problems: list[dict[str, Any]] = []
    participants: dict[str, Participant] = {}
    invitations: Invitations = {}
    made = {at: data for at, kind, data in changes if kind == ParticipantSet.__name__}
    pending = iter(changes)
    change = next(pending, None)
    for position, by, key, role, character, command in signers:
        while change is not None and change[0] < position:
            _apply(participants, invitations, change)
            change = next(pending, None)
        if role == "invalid":
            continue  # reported by the share that checked it
        if role == INVITED:
            refused = _joined(invitations, character or "", key, made.get(position))
            if refused:
                problems.append({"position": position, "problem": f"recorded by {by}: {refused}"})
            continue
        try:
            found = authorise(participants, campaign, key, cast(Role, role), character, command)
        except ChronicleError as refused:
            problems.append({"position": position, "problem": f"recorded by {by}: {refused}"})
            continue
        if found is not None and found.role == "player" and found.name.casefold() != by.casefold():
            problems.append(
                {"position": position, "problem": f"signed by the player {found.name} but recorded as by {by}"}
            )
    if require and unsigned:
        problems.append({"position": 0, "problem": f"{unsigned} events are unsigned (recorded before signatures)"})
    return len(signers), unsigned, problems


def _joined(invitations: Invitations, hashed: str, key: str, made: dict[str, Any] | None) -> str:
    """Why a join does not stand (empty when it does): the invitation its token hashes to must be open,
    its event must take it up, and make that invitation's participant with the signing key, in time."""
    invited = invitations.get(hashed)
    if invited is None:
        return "a join whose token is no open invitation's (never made, taken up already, or of another campaign)"
    if made is None or made.get("invitation") != hashed:
        return "a join that records no participant by its invitation"
    if made["key"] != key:
        return "a join that records another key than the one that signed it"
    wanted = (invited["name"].casefold(), invited["role"], list(invited["plays"]))
    if (made["name"].casefold(), made["role"], list(made["plays"])) != wanted:
        return f"a join that records other than the invitation of {invited['name']} held"
    sent, expires = datetime.fromisoformat(invited["timestamp"]), datetime.fromisoformat(invited["expires"])
    if expires - sent > INVITATION_HOLDS or datetime.fromisoformat(made["timestamp"]) > expires:
        return f"a join after its invitation expired ({invited['expires']})"
    return ""


def _apply(
    participants: dict[str, Participant], invitations: Invitations, change: tuple[int, str, dict[str, Any]]
) -> None:
    position, kind, data = change
    if kind == "ParticipantRemoved":
        participants.pop(data["name"], None)
        return
    if kind == "ParticipantInvited":
        invitations[data["invitation"]] = data
        return
    if data.get("invitation"):
        invitations.pop(data["invitation"], None)
    participants[data["name"]] = Participant(data["name"], data["role"], tuple(data["plays"]), data["key"], position)
