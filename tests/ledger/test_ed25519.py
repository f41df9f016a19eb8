"""Signatures made with the identity's key (cryptography's OpenSSL) are checked by libsodium: the two agree."""

import os

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from chronicle.ledger.trust import ed25519
from chronicle.ledger.trust.identity import key_text, verify
from chronicle.ledger.trust.signing import verifies


def _signed(message: bytes) -> tuple[bytes, bytes]:
    private = Ed25519PrivateKey.generate()
    return private.public_key().public_bytes_raw(), private.sign(message)


def test_a_signature_made_by_the_identitys_library_verifies_and_a_changed_message_does_not():
    message = os.urandom(300)
    public, signature = _signed(message)
    assert ed25519.verify(public, signature, message)
    assert not ed25519.verify(public, signature, message + b" ")
    assert not ed25519.verify(public, bytes([signature[0] ^ 1]) + signature[1:], message)


def test_malformed_keys_and_signatures_verify_nothing_without_raising():
    message = b"roll d20"
    public, signature = _signed(message)
    assert not ed25519.verify(public[:31], signature, message)
    assert not ed25519.verify(public, signature[:63], message)
    assert not ed25519.verify(bytes(32), signature, message)  # a key of small order
    assert not verify("ed25519:not base64!", message, signature)
    assert not verifies("rsa:" + key_text(public)[8:], "AAAA", message)
    assert not verifies(key_text(public), "not base64!", message)


def test_the_text_forms_agree_with_the_raw_check():
    import base64

    message = b'{"campaign":"x","document":{},"nonce":"n"}'
    public, signature = _signed(message)
    assert verify(key_text(public), message, signature)
    assert verifies(key_text(public), base64.b64encode(signature).decode(), message)
