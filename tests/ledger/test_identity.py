"""Identities (ledger/identity.py): an Ed25519 key pair per user, made on first need, the private
key readable by its owner only."""

from __future__ import annotations

import base64
import os
import stat
import threading

import pytest

from chronicle.domain.errors import BadInput
from chronicle.ledger import identity


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
