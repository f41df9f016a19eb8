"""Checking an Ed25519 signature, through libsodium (PyNaCl): it verified in about half OpenSSL's time on
the machines measured (benchmarks/crypto.py), and `verify`, `import` and a server check one signature for
every command. Signing stays with `cryptography` (ledger/trust/identity.py): a one-shot command signs once,
and its import is already paid for the key file. Both follow RFC 8032, so a signature either makes the
other checks; libsodium also refuses keys of small order, which no key chronicle makes ever is."""

from __future__ import annotations

import functools

from nacl.exceptions import BadSignatureError, CryptoError
from nacl.signing import VerifyKey


def verify(public: bytes, signature: bytes, message: bytes) -> bool:
    """Whether SIGNATURE (64 bytes) is the Ed25519 signature of MESSAGE by the 32-byte key PUBLIC."""
    if len(public) != 32 or len(signature) != 64:
        return False
    try:
        _key(public).verify(message, signature)
    except (BadSignatureError, CryptoError, ValueError, TypeError):
        return False
    return True


@functools.lru_cache(maxsize=1024)  # a campaign has a few keys, and `verify` checks every event's
def _key(public: bytes) -> VerifyKey:
    return VerifyKey(public)
