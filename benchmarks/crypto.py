"""Ed25519 as chronicle uses it (`cryptography`, PyCA's OpenSSL binding) beside PyNaCl (libsodium, PyCA too),
on this machine: signing and verifying the same messages (a signed command's canonical JSON, some 300 bytes),
the two taking turns round by round, the median of ROUNDS. chronicle verifies through PyNaCl because it did so
at least 1.5x faster here (ledger/trust/ed25519.py); the row says whether that still holds.

`python -m benchmarks.crypto` runs this row alone; `python -m benchmarks` (and `--quick`) include it."""

from __future__ import annotations

import os
import statistics
import time

from .measure import row

MESSAGES = 2_000
ROUNDS = 5
ADOPT = 1.5


def measure(messages: int = MESSAGES, rounds: int = ROUNDS) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from nacl.signing import SigningKey

    seed = os.urandom(32)
    theirs, sodium = Ed25519PrivateKey.from_private_bytes(seed), SigningKey(seed)
    public, verify_key = theirs.public_key(), sodium.verify_key
    texts = [os.urandom(300) for _ in range(messages)]
    signatures = [theirs.sign(text) for text in texts]
    sign_c, sign_n, verify_c, verify_n = [], [], [], []
    for _ in range(rounds):
        started = time.perf_counter()
        for text in texts:
            theirs.sign(text)
        sign_c.append((time.perf_counter() - started) / messages)
        started = time.perf_counter()
        for text in texts:
            sodium.sign(text)
        sign_n.append((time.perf_counter() - started) / messages)
        started = time.perf_counter()
        for text, signature in zip(texts, signatures, strict=True):
            public.verify(signature, text)
        verify_c.append((time.perf_counter() - started) / messages)
        started = time.perf_counter()
        for text, signature in zip(texts, signatures, strict=True):
            verify_key.verify(text, signature)
        verify_n.append((time.perf_counter() - started) / messages)
    c, n = statistics.median(verify_c), statistics.median(verify_n)
    row(
        "Ed25519 sign: cryptography / PyNaCl",
        f"{statistics.median(sign_c) * 1e6:.0f} / {statistics.median(sign_n) * 1e6:.0f} us",
    )
    row(
        "Ed25519 verify: cryptography / PyNaCl",
        f"{c * 1e6:.0f} / {n * 1e6:.0f} us",
        f"PyNaCl {c / n:.2f}x as fast (chosen at >= {ADOPT}x: {'holds' if c / n >= ADOPT else 'no longer holds'})",
    )


if __name__ == "__main__":
    measure()
    from .measure import markdown

    print("\n" + markdown())
