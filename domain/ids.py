"""Ids derived from names and versions: campaigns and characters are found by name, events by
their aggregate and version, so no lookup table is needed. Standard library only: `character show`
computes them without loading any domain model."""

from __future__ import annotations

import functools
import hashlib
from uuid import NAMESPACE_URL, UUID, uuid5


@functools.lru_cache(maxsize=4096)  # a batch names the same few campaigns and characters line after line
def campaign_id(name: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"chronicle:campaign:{name}")


@functools.lru_cache(maxsize=65536)
def character_id(campaign: UUID, name: str) -> UUID:
    """Characters are found by name within their campaign."""
    return uuid5(campaign, f"character:{name}")


def event_id(originator_id: UUID, version: int) -> str:
    """An event's public id: stable, unique, derived from its aggregate and version.

    `str(uuid5(originator_id, f"v{version}"))`, computed without building UUID objects (the index
    and the importer compute one per event)."""
    digest = bytearray(hashlib.sha1(originator_id.bytes + f"v{version}".encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    h = digest.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
