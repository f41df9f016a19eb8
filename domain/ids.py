"""Ids derived from names and versions: characters are found by name within their campaign, events by
their aggregate and version, so no lookup table is needed (a campaign's own id is drawn at random when it
is started: ledger/application/session.py). Standard library only: `character show` computes them without
loading any domain model."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Container
from uuid import NAMESPACE_URL, UUID, uuid5


@functools.lru_cache(maxsize=4096)  # a batch names the same few campaigns and characters line after line
def campaign_id(name: str) -> UUID:
    """The id a campaign of NAME was given before ids were drawn at random (older ledgers keep theirs)."""
    return uuid5(NAMESPACE_URL, f"chronicle:campaign:{name}")


@functools.lru_cache(maxsize=65536)
def character_id(campaign: UUID, name: str) -> UUID:
    """Characters are found by name within their campaign."""
    return uuid5(campaign, f"character:{name}")


def derives_id(ident: UUID, campaign: UUID, name: str, registered: Container[UUID]) -> bool:
    """Whether IDENT is the id a registration of NAME gets in CAMPAIGN: its name's, else (that id taken by a
    character renamed since, among REGISTERED) the first of `NAME#2`, `NAME#3`, ... not taken."""
    candidate, suffix = character_id(campaign, name), 1
    while candidate != ident:
        if candidate not in registered:
            return False
        suffix += 1
        candidate = character_id(campaign, f"{name}#{suffix}")
    return True


def event_id(originator_id: UUID, version: int) -> str:
    """An event's public id: stable, unique, derived from its aggregate and version.

    `str(uuid5(originator_id, f"v{version}"))`, computed on the hex digest without building UUID
    objects (the index computes one per event)."""
    h = _sha1(originator_id, version).hexdigest()
    return f"{h[:8]}-{h[8:12]}-5{h[13:16]}-{_VARIANT[h[16]]}{h[17:20]}-{h[20:32]}"  # version 5


def event_key(originator_id: UUID, version: int) -> int:
    """The first 63 bits of `event_id` as a number, which the index keeps instead of the id's text
    (a smaller row, a smaller index); ids with equal keys are told apart by their aggregate."""
    head = int.from_bytes(_sha1(originator_id, version).digest()[:8])
    return ((head & ~0xF000) | 0x5000) >> 1  # with uuid5's version digit, as the id has it


def key_of(ident: str) -> int:
    """`event_key` of an event id's text."""
    return int(ident[:8] + ident[9:13] + ident[14:18], 16) >> 1


def _sha1(originator_id: UUID, version: int) -> hashlib._Hash:
    """The hash uuid5 takes of the event's name (`v{version}`) in its aggregate's namespace."""
    return hashlib.sha1(originator_id.bytes + b"v%d" % version)


_VARIANT = {c: "89ab"[int(c, 16) & 0x3] for c in "0123456789abcdef"}  # the RFC 4122 variant's hex digit
