"""What the ledger draws for itself as a command decides, apart from its dice (ledger/application/fair_dice.py):
a new campaign's id and an invitation's one-time token."""

from __future__ import annotations

import secrets
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from ...domain.participants import invitation_hash


def campaign_id(name: str, seed: int | None) -> UUID:
    """A new campaign's id, drawn at random: no two ledgers' campaigns of one name share it, so a signature
    (over the id) never fits another ledger's campaign (docs/guarantees.md, "What is signed"). A seeded
    ledger (SEED: tests, the demo) draws it as reproducibly as its dice."""
    if seed is not None:
        return uuid5(NAMESPACE_URL, f"chronicle:seeded-campaign:{seed}:{name}")
    return uuid4()


def invitation() -> tuple[str, str]:
    """A fresh one-time token and its hash, as an invitation records it (domain/participants.py)."""
    token = secrets.token_urlsafe(24)
    return token, invitation_hash(token)
