"""Signing what a participant asks for, and checking a signature later.

A command's document is signed once, before it is decided; every event the command then records keeps
that signature (`DomainEvent.signed`) and is sealed (hashed) with it."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol
from uuid import UUID

from ...domain.events import Signed
from ...domain.participants import KEY_PREFIX, signed_message
from .canonical import canonical


class Signer(Protocol):
    """An identity that signs: its public key as `ed25519:BASE64` and its Ed25519 signature of bytes."""

    @property
    def public_key_text(self) -> str: ...

    def sign(self, message: bytes) -> bytes: ...


def message(campaign: UUID | str, document: Mapping[str, Any], nonce: str) -> bytes:
    return canonical(signed_message(str(campaign), dict(document), nonce))


def sign(signer: Signer, campaign: UUID | str, document: Mapping[str, Any], nonce: str | None = None) -> Signed:
    """DOCUMENT signed by SIGNER for CAMPAIGN, with a fresh nonce unless one is given (a browser's)."""
    nonce = nonce or secrets.token_urlsafe(18)
    signature = signer.sign(message(campaign, document, nonce))
    return Signed(
        document=dict(document),
        nonce=nonce,
        key=signer.public_key_text,
        signature=base64.b64encode(signature).decode(),
    )


def message_of(signed: Signed, campaign: UUID | str) -> bytes | None:
    """What SIGNED's signature signs for CAMPAIGN; None for a document with no canonical form (it signs nothing)."""
    try:
        return message(campaign, signed.document, signed.nonce)
    except (ValueError, TypeError):
        return None


def valid(signed: Signed, campaign: UUID | str) -> bool:
    """Whether SIGNED's signature is its key's, over its document and nonce for CAMPAIGN."""
    signed_message = message_of(signed, campaign)
    return signed_message is not None and verifies(signed.key, signed.signature, signed_message)


def verifies(key: str, signature: str, signed_message: bytes) -> bool:
    """Whether SIGNATURE (base64) is KEY's (`ed25519:BASE64`) Ed25519 signature of SIGNED_MESSAGE."""
    from . import ed25519  # (libsodium's import: not on a one-shot command's path, which only signs)

    if not isinstance(key, str) or not key.startswith(KEY_PREFIX):
        return False
    try:
        raw_key = base64.b64decode(key.removeprefix(KEY_PREFIX), validate=True)
        raw_signature = base64.b64decode(signature, validate=True)
    except (ValueError, TypeError):
        return False
    return ed25519.verify(raw_key, raw_signature, signed_message)


def seal_with(touched: Iterable[tuple[Any, int]], signed_for: Callable[[UUID], Signed]) -> None:
    """Put on the events each aggregate of TOUCHED gained since it held `start` pending events (its pairs:
    aggregate, start) the signature `signed_for(its campaign's id)`, and seal them again, in order, so each
    hash covers the signature and the chain runs on unbroken."""
    dumped: dict[UUID, tuple[Signed, dict[str, Any]]] = {}  # each signature's JSON, made once
    for aggregate, start in touched:
        fresh = aggregate.pending_events[start:]
        if not fresh:
            continue
        campaign = getattr(aggregate, "campaign_id", aggregate.id)  # a character's, or the campaign
        if campaign not in dumped:
            signed = signed_for(campaign)
            dumped[campaign] = (signed, signed.model_dump(mode="json"))
        signed, state = dumped[campaign]
        previous = fresh[0].prev_hash
        for event in fresh:
            previous = event.signed_with(previous, signed, state).hash
        aggregate.head_hash = previous
