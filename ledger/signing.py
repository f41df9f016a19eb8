"""Signing what a participant asks for, and checking a signature later.

A command's document is signed once, before it is decided; every event the command then records keeps
that signature (`DomainEvent.signed`) and is sealed (hashed) with it."""

from __future__ import annotations

import base64
import functools
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ..domain.events import Signed
from ..domain.participants import KEY_PREFIX, signed_message
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


def valid(signed: Signed, campaign: UUID | str) -> bool:
    """Whether SIGNED's signature is its key's, over its document and nonce for CAMPAIGN."""
    from cryptography.exceptions import InvalidSignature

    try:
        signature = base64.b64decode(signed.signature, validate=True)
        public_key(signed.key).verify(signature, message(campaign, signed.document, signed.nonce))
    except (InvalidSignature, ValueError, TypeError):
        return False
    return signed.key.startswith(KEY_PREFIX)


@functools.lru_cache(maxsize=1024)  # a campaign has a few keys, and verify checks every event's
def public_key(text: str) -> Ed25519PublicKey:
    raw = base64.b64decode(text.removeprefix(KEY_PREFIX), validate=True)
    return Ed25519PublicKey.from_public_bytes(raw)


def seal_with(aggregates: Iterable[Any], already: Mapping[UUID, int], signed_for: Callable[[UUID], Signed]) -> None:
    """Put on the events each aggregate gained since it held `already[id]` pending events the signature
    `signed_for(its campaign's id)`, and seal them again, in order, so each hash covers the signature and
    the chain runs on unbroken."""
    for aggregate in aggregates:
        fresh = aggregate.pending_events[already.get(aggregate.id, 0) :]
        if not fresh:
            continue
        signed = signed_for(getattr(aggregate, "campaign_id", aggregate.id))  # a character's, or the campaign
        previous = fresh[0].prev_hash
        for event in fresh:
            event.__dict__["prev_hash"] = previous
            event.__dict__["signed"] = signed
            event.__pydantic_fields_set__.add("signed")
            previous = event.sealed().hash
        aggregate.head_hash = previous
