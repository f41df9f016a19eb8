"""Identities (ledger/trust/identity.py): an Ed25519 key pair per user, made on first need, the private
key readable by its owner only."""

from __future__ import annotations

import base64
import os
import stat
import threading

import pytest

from chronicle.domain.errors import BadInput
from chronicle.ledger.trust import identity


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = tmp_path / "home" / "chronicle"
    monkeypatch.setenv("CHRONICLE_HOME", str(folder))
    return folder


def test_made_on_first_need_owner_only_and_then_the_same(home):
    assert not home.exists()
    made = identity.load_or_create()
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE((home / identity.KEY_FILE).stat().st_mode) == 0o600
    assert made.public_key_text.startswith("ed25519:")
    assert len(base64.b64decode(made.public_key_text.removeprefix("ed25519:"))) == 32
    assert identity.load_or_create().public_key_text == made.public_key_text
    assert identity.load_or_create(home).public_key_text == made.public_key_text


def test_a_signature_verifies_with_its_key_only(home):
    mine = identity.load_or_create()
    other = identity.load_or_create(home.parent / "other")
    signature = mine.sign(b"the table's dice")
    assert len(signature) == 64
    assert identity.verify(mine.public_key_text, b"the table's dice", signature)
    assert not identity.verify(mine.public_key_text, b"the table's dice!", signature)
    assert not identity.verify(other.public_key_text, b"the table's dice", signature)
    assert not identity.verify("ed25519:not-base64", b"the table's dice", signature)


def test_two_processes_making_it_at_once_keep_one_key(home):
    found: list[str] = []
    threads = [
        threading.Thread(target=lambda: found.append(identity.load_or_create().public_key_text)) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(found)) == 1 and len(found) == 8
    assert [p.name for p in home.iterdir()] == [identity.KEY_FILE]  # no draft left behind


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_a_key_others_may_read_is_refused(home):
    identity.load_or_create()
    os.chmod(home / identity.KEY_FILE, 0o644)
    with pytest.raises(BadInput, match="chmod 600"):
        identity.load_or_create()


def test_a_key_file_that_is_no_key_is_bad_input(home):
    home.mkdir(parents=True)
    (home / identity.KEY_FILE).write_text("not a key")
    os.chmod(home / identity.KEY_FILE, 0o600)
    with pytest.raises(BadInput, match="not an identity"):
        identity.load_or_create()


def test_key_texts_are_checked(home):
    key = identity.load_or_create().public_key_text
    assert identity.public_key(key) == identity.load_or_create().public_key
    for bad in ("", "ed25519:", "rsa:AAAA", "ed25519:" + base64.b64encode(b"short").decode(), "ed25519:%%%"):
        with pytest.raises(BadInput):
            identity.public_key(bad)


def test_an_empty_chronicle_home_is_bad_input(monkeypatch):
    monkeypatch.setenv("CHRONICLE_HOME", " ")
    with pytest.raises(BadInput, match="CHRONICLE_HOME"):
        identity.home()


def _write_key(home, pem: bytes) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / identity.KEY_FILE).write_bytes(pem)
    os.chmod(home / identity.KEY_FILE, 0o600)


def test_the_key_file_is_the_pkcs8_pem_other_tools_write_and_read(home):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    made = identity.load_or_create()
    stored = serialization.load_pem_private_key((home / identity.KEY_FILE).read_bytes(), password=None)
    assert isinstance(stored, Ed25519PrivateKey)
    assert stored.public_key().public_bytes_raw() == made.public_key

    theirs = Ed25519PrivateKey.generate()  # a key made elsewhere (e.g. openssl genpkey), CRLF line ends and all
    pem = theirs.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (home / identity.KEY_FILE).unlink()
    _write_key(home, pem.replace(b"\n", b"\r\n"))
    assert identity.load_or_create().public_key == theirs.public_key().public_bytes_raw()


def test_a_key_of_another_kind_or_encrypted_is_bad_input(home):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    pkcs8, pem = serialization.PrivateFormat.PKCS8, serialization.Encoding.PEM
    other = ec.generate_private_key(ec.SECP256R1()).private_bytes(pem, pkcs8, serialization.NoEncryption())
    locked = Ed25519PrivateKey.generate().private_bytes(pem, pkcs8, serialization.BestAvailableEncryption(b"pw"))
    for data, says in ((other, "not Ed25519"), (locked, "not an identity")):
        _write_key(home, data)
        with pytest.raises(BadInput, match=says):
            identity.load_or_create()
