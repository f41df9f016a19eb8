"""Checkpoints as C2SP defines them: a signed note (c2sp.org/signed-note) whose text is a
checkpoint (c2sp.org/tlog-checkpoint):

    chronicle/<campaign id>         the origin: which log
    <size>                          how many leaves (the campaign's events)
    <base64 root>                   the RFC 6962 root of those leaves
                                    a blank line, then one line per signature:
    — <key name> <base64(4-byte key ID || 64-byte Ed25519 signature)>

The signature covers the text up to and including the root line's newline. The key ID is the first
four bytes of SHA-256(key name || 0x0A || 0x01 || the 32-byte public key), 0x01 naming Ed25519.
A key name may hold no space and no `+`; chronicle names a key by itself, `ed25519:` and its bytes in
URL-safe base64 without padding, so a note says which key signed it and anyone can check it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from typing import NamedTuple, Protocol
from uuid import UUID

from ...domain.errors import BadInput
from .identity import key_text
from .identity import verify as verify_signature

DASH = "\u2014"  # EM DASH, then a space, opens a signature line
ED25519 = b"\x01"
ORIGIN = "chronicle/"
MAX_NOTE = 1 << 16  # bytes: a checkpoint is a few hundred
_NAME = re.compile(r"ed25519:([A-Za-z0-9_-]{43})")


class Signer(Protocol):
    public_key: bytes

    def sign(self, message: bytes) -> bytes: ...


class Checkpoint(NamedTuple):
    """A signed checkpoint: the campaign, its size and root, the signer's key (ed25519:BASE64) and the note."""

    campaign: UUID
    size: int
    root: bytes
    key: str
    note: str


def key_name(public: bytes) -> str:
    return "ed25519:" + base64.urlsafe_b64encode(public).decode("ascii").rstrip("=")


def key_id(name: str, public: bytes) -> bytes:
    return hashlib.sha256(name.encode("utf-8") + b"\n" + ED25519 + public).digest()[:4]


def body(campaign: UUID, size: int, root: bytes) -> str:
    return f"{ORIGIN}{campaign}\n{size}\n{base64.b64encode(root).decode('ascii')}\n"


def sign(campaign: UUID, size: int, root: bytes, signer: Signer) -> Checkpoint:
    text = body(campaign, size, root)
    name = key_name(signer.public_key)
    signature = key_id(name, signer.public_key) + signer.sign(text.encode("utf-8"))
    note = f"{text}\n{DASH} {name} {base64.b64encode(signature).decode('ascii')}\n"
    return Checkpoint(campaign, size, root, key_text(signer.public_key), note)


def read(note: str) -> Checkpoint:
    """The checkpoint a note holds, once its signature by a chronicle identity verifies; anything
    else is bad input saying why. Signature lines by other keys (a witness's cosignature) are
    allowed and left unchecked."""
    note = note.replace("\r\n", "\n")  # a note that went through a Windows editor or a mail
    if len(note.encode("utf-8", "replace")) > MAX_NOTE or "\n\n" not in note or not note.endswith("\n"):
        raise BadInput("not a checkpoint note: a checkpoint's text, a blank line, then its signature lines")
    text, _, signatures = note.rpartition("\n\n")
    text += "\n"
    campaign, size, root = _checkpoint(text)
    signers = [_signer(line, text) for line in signatures.removesuffix("\n").split("\n")]
    keys = [key for key in signers if key is not None]
    if not keys:
        raise BadInput("the checkpoint is signed by no chronicle identity (a line `— ed25519:... SIGNATURE`)")
    return Checkpoint(campaign, size, root, keys[0], note)


def _checkpoint(text: str) -> tuple[UUID, int, bytes]:
    lines = text.removesuffix("\n").split("\n")
    if len(lines) < 3 or not lines[0].startswith(ORIGIN):
        raise BadInput(f"not a chronicle checkpoint: its first line must be {ORIGIN}<campaign id>")
    try:
        campaign = UUID(lines[0].removeprefix(ORIGIN))
    except ValueError:
        raise BadInput(f"not a chronicle checkpoint: {lines[0]!r} names no campaign id") from None
    if not re.fullmatch(r"0|[1-9][0-9]{0,18}", lines[1]):
        raise BadInput(f"the checkpoint's size must be a whole number, got {lines[1]!r}")
    try:
        root = base64.b64decode(lines[2], validate=True)
    except (binascii.Error, ValueError):
        root = b""
    if len(root) != 32:
        raise BadInput(f"the checkpoint's root must be 32 bytes in base64, got {lines[2]!r}")
    return campaign, int(lines[1]), root


def _signer(line: str, text: str) -> str | None:
    """The key (ed25519:BASE64) that signed `text` on this signature line; None for another kind of
    key. A chronicle key whose signature does not verify is bad input: the note was altered."""
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != DASH or not parts[1] or "+" in parts[1]:
        raise BadInput(f"not a signature line: {line!r}")
    name, encoded = parts[1], parts[2]
    found = _NAME.fullmatch(name)
    if found is None:
        return None
    public = base64.urlsafe_b64decode(found.group(1) + "=")
    try:
        signature = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        signature = b""
    key = key_text(public)
    if len(signature) != 68 or signature[:4] != key_id(name, public):
        raise BadInput(f"the signature by {key} is not an Ed25519 signature of a signed note")
    if not verify_signature(key, text.encode("utf-8"), signature[4:]):
        raise BadInput(f"the signature by {key} does not verify: the checkpoint was altered after it was signed")
    return key
