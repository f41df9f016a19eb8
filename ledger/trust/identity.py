"""Identities: one Ed25519 key pair per user, kept in the user's chronicle folder.

The folder is `$CHRONICLE_HOME`, else `~/.config/chronicle` (made 0700). The private key is
`identity.key` there (PKCS#8 PEM, mode 0600), made on first need; a key file that others may read
is refused, as ssh refuses one. A public key is written `ed25519:` + the base64 of its 32 bytes.
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ...domain.errors import BadInput

PREFIX = "ed25519:"
KEY_FILE = "identity.key"

# An unencrypted Ed25519 PKCS#8 key (RFC 8410, section 7) is these 16 DER bytes and the 32-byte seed. Keys
# of that form are read and written here; any other PEM goes to cryptography's general reader, whose import
# (every key format it knows) costs a one-shot command some 10 ms.
PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")
PEM_BEGIN, PEM_END = b"-----BEGIN PRIVATE KEY-----", b"-----END PRIVATE KEY-----"


def home() -> Path:
    """The user's chronicle folder: `$CHRONICLE_HOME`, else `~/.config/chronicle`."""
    configured = os.environ.get("CHRONICLE_HOME")
    if configured is not None and not configured.strip():
        raise BadInput("CHRONICLE_HOME is empty: name a folder, or unset it for ~/.config/chronicle")
    return Path(configured).expanduser() if configured else Path.home() / ".config" / "chronicle"


def folder(at: Path | None = None) -> Path:
    """The chronicle folder, made (owner only) if it does not exist yet."""
    path = at if at is not None else home()
    if path.is_dir():
        return path
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(path, 0o700)  # mkdir's mode is filtered by the umask
    except OSError as error:
        raise BadInput(f"cannot make the chronicle folder {path}: {error.strerror or error}") from None
    if not path.is_dir():
        raise BadInput(f"cannot make the chronicle folder {path}: a file has that name")
    return path


class Identity:
    """An Ed25519 key pair: signs for its owner."""

    def __init__(self, private: Ed25519PrivateKey, path: Path | None = None):
        self._private = private
        self.path = path
        self.public_key = private.public_key().public_bytes_raw()
        self.public_key_text = key_text(self.public_key)

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of `message`."""
        return self._private.sign(message)

    def __repr__(self) -> str:  # never the private key
        return f"Identity({self.public_key_text})"


def load_or_create(at: Path | None = None) -> Identity:
    """The identity kept in the chronicle folder `at` (default `home()`), made on first need."""
    path = folder(at) / KEY_FILE
    if not path.exists():
        _create(path)
    return _load(path)


def _create(path: Path) -> None:
    """Write a new key to `path`, never over one: two processes making it at once keep the first."""
    pem = pem_of(Ed25519PrivateKey.generate())
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")  # one per process and thread
    try:
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(descriptor, pem)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        try:
            os.link(draft, path)  # fails if another process made one meanwhile: theirs is kept
        except FileExistsError:
            pass
    except OSError as error:
        raise BadInput(f"cannot make the identity {path}: {error.strerror or error}") from None
    finally:
        draft.unlink(missing_ok=True)


def _load(path: Path) -> Identity:
    try:
        mode = path.stat().st_mode
        if os.name == "posix" and mode & 0o077:
            raise BadInput(
                f"the identity {path} may be read by others (mode {mode & 0o777:o}):"
                f" make it yours alone with `chmod 600 {path}`"
            )
        data = path.read_bytes()
    except OSError as error:
        raise BadInput(f"cannot read the identity {path}: {error.strerror or error}") from None
    return Identity(private_key(data, path), path)


def pem_of(private: Ed25519PrivateKey) -> bytes:
    """PRIVATE as an unencrypted PKCS#8 PEM, as `openssl genpkey -algorithm ed25519` writes it."""
    body = base64.b64encode(PKCS8_ED25519 + private.private_bytes_raw())
    return PEM_BEGIN + b"\n" + body + b"\n" + PEM_END + b"\n"


def private_key(data: bytes, path: Path) -> Ed25519PrivateKey:
    """The Ed25519 key a PEM file at PATH holds; bad input when it holds none chronicle can use."""
    lines = data.strip().splitlines()
    if len(lines) == 3 and lines[0].strip() == PEM_BEGIN and lines[2].strip() == PEM_END:
        try:
            der = base64.b64decode(lines[1].strip(), validate=True)
        except (binascii.Error, ValueError):
            der = b""
        if len(der) == 48 and der.startswith(PKCS8_ED25519):
            return Ed25519PrivateKey.from_private_bytes(der[16:])
    from cryptography.hazmat.primitives import serialization  # other forms (e.g. with the public key inside)

    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise BadInput(f"{path} is not an identity chronicle can read (an unencrypted Ed25519 PEM key)") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise BadInput(f"{path} holds a key that is not Ed25519")
    return private


def key_text(public: bytes) -> str:
    return PREFIX + base64.b64encode(public).decode("ascii")


def public_key(text: str) -> bytes:
    """The 32 bytes of a key written `ed25519:BASE64`; anything else is bad input."""
    if not isinstance(text, str) or not text.startswith(PREFIX):
        raise BadInput(f"a key is written ed25519:BASE64, got {text!r}")
    try:
        raw = base64.b64decode(text[len(PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        raise BadInput(f"a key is written ed25519:BASE64, got {text!r}") from None
    if len(raw) != 32:
        raise BadInput(f"an Ed25519 key has 32 bytes, {text!r} has {len(raw)}")
    return raw


def verify(key: str, message: bytes, signature: bytes) -> bool:
    """Whether `signature` is the signature of `message` by the key written `key` (ed25519:BASE64)."""
    from .ed25519 import verify as verified

    try:
        raw = public_key(key)
    except BadInput:  # a malformed key verifies nothing
        return False
    return verified(raw, signature, message)
