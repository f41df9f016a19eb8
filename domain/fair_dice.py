"""Dice the table can trust (docs/fair-dice.md): the ledger's rolls from a hash chain of seeds it committed
to before using them, mixed with a seed the asking device drew.

Pure: the chain and the faces are functions of the bytes given. The i-th roll of a chain reveals seed s_i,
which hashes (SHA-256) to s_(i-1), and the chain's first seed s_0 is its commitment's `head`. The faces
of a roll are read from a stream of HMAC-SHA256 blocks keyed by s_i over `b"chronicle-dice-v1" || device
seed || uint64_be(block)`, four big-endian 64-bit values a block, by rejection sampling (no modulo bias).
"""

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from typing import Annotated

from pydantic import Field

from .model import Model

LABEL = b"chronicle-dice-v1"
HEX64 = r"^[0-9a-f]{64}$"
Hex64 = Annotated[str, Field(pattern=HEX64)]


class FairSeed(Model):
    """What a fair roll records (`dice.fair`): which seed of its commitment's chain it reveals (from 1),
    the seed, and the device's seed (None when the command came with none)."""

    index: int = Field(ge=1)
    seed: Hex64
    device_seed: Hex64 | None = None


def chain(top: bytes, length: int) -> list[bytes]:
    """The seeds s_0 .. s_length of the chain whose last seed is `top`: s_(i-1) = SHA-256(s_i)."""
    seeds = [top]
    for _ in range(length):
        seeds.append(hashlib.sha256(seeds[-1]).digest())
    seeds.reverse()
    return seeds


def hashes_to(seed: bytes, earlier: bytes, steps: int) -> bool:
    """Whether hashing `seed` `steps` times gives `earlier` (seed i against seed i - steps, or the head)."""
    for _ in range(steps):
        seed = hashlib.sha256(seed).digest()
    return hmac.compare_digest(seed, earlier)


class FairStream:
    """The faces of one fair roll, drawn in order; `position` counts the 64-bit values taken (rejected ones
    too), so a replay that needs more dice goes on from where the recorded ones ended."""

    __slots__ = ("_key", "_prefix", "_values", "position")

    def __init__(self, seed: bytes, device_seed: bytes = b"", position: int = 0):
        self._key = hmac.new(seed, digestmod=hashlib.sha256)
        self._prefix = LABEL + device_seed
        self._values: list[int] = []
        self.position = 0
        for _ in range(position):
            self.value()

    @classmethod
    def of(cls, fair: FairSeed, position: int = 0) -> "FairStream":
        device = bytes.fromhex(fair.device_seed) if fair.device_seed else b""
        return cls(bytes.fromhex(fair.seed), device, position)

    def value(self) -> int:
        """The stream's next 64-bit value."""
        if not self._values:
            block = self._key.copy()
            block.update(self._prefix + (self.position // 4).to_bytes(8, "big"))
            digest = block.digest()
            self._values = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]  # popped from the end
        self.position += 1
        return self._values.pop()

    def face(self, sides: int) -> int:
        """A die of `sides` faces: the next value below the largest multiple of `sides` that fits 64 bits."""
        limit = sides * ((1 << 64) // sides)
        while True:
            value = self.value()
            if value < limit:
                return 1 + value % sides

    def faces(self, sides: int, count: int) -> list[int]:
        return [self.face(sides) for _ in range(count)]


def rederived(fair: FairSeed, rolls: Iterable[tuple[int, int]]) -> tuple[list[tuple[int, ...]], int]:
    """The faces each of `rolls` ((sides, how many dice), in the order recorded) gets from the fair seed,
    and how many values the stream gave."""
    stream = FairStream.of(fair)
    faces = [tuple(stream.faces(sides, count)) for sides, count in rolls]
    return faces, stream.position


def faces_agree(fair: FairSeed, rolls: Sequence[tuple[int, Sequence[int]]], draws: int) -> bool:
    """Whether the ledger's rolls of an event ((sides, faces), in order) are what its fair seed gives, the
    stream having given `draws` values."""
    again, drawn = rederived(fair, [(sides, len(faces)) for sides, faces in rolls])
    return drawn == draws and again == [tuple(faces) for _, faces in rolls]
