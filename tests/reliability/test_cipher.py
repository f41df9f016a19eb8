"""Encryption at rest: with CHRONICLE_CIPHER_KEY every stored event is AES-GCM ciphertext; without
the right key a ledger refuses to open (exit 2, one line), never shows garbage."""

from __future__ import annotations

import base64
import json

import pytest
from click.testing import CliRunner
from conftest import Run
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from chronicle.cli.main import chronicle

from .rows import all_states

SECRET_REASON = "the hoard of Smaug"


def new_key() -> str:
    result = CliRunner().invoke(chronicle, ["key", "new"])
    assert result.exit_code == 0
    return result.stdout.strip()


def opened(state: bytes, key: str) -> bytes:
    """The plaintext of a stored state laid out as the library's AES-GCM cipher lays it out: a 12-byte
    nonce, the 16-byte tag, then the ciphertext (as long as the plaintext). A state of any other form, or
    sealed under another key, fails the tag check and raises."""
    nonce, tag, body = state[:12], state[12:28], state[28:]
    assert len(nonce) == 12 and len(tag) == 16 and body
    return AESGCM(base64.b64decode(key)).decrypt(nonce, body + tag, None)


def story(run) -> None:
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    run("roll", "3d6", "--for", "Bruno", "--reason", SECRET_REASON)


@pytest.fixture
def key(monkeypatch) -> str:
    secret = new_key()
    monkeypatch.setenv("CHRONICLE_CIPHER_KEY", secret)
    return secret


def test_key_new_makes_a_256_bit_key():
    assert len(base64.b64decode(new_key(), validate=True)) == 32
    assert (
        len(base64.b64decode(json.loads(CliRunner().invoke(chronicle, ["key", "new", "--json"]).stdout)["key"])) == 32
    )


def test_stored_events_are_ciphertext_and_read_back_with_the_key(run, key, tmp_path):
    story(run)
    assert run.json("log")["events"][-1]["data"]["reason"] == SECRET_REASON
    assert run.json("verify")["ok"] is True
    states = all_states(run.db)
    assert len(states) == 3
    assert not any(SECRET_REASON.encode() in s or b"Bruno" in s for s in states)
    plaintexts = [opened(state, key) for state in states]
    assert all(text.startswith(b"{") for text in plaintexts)  # the event's JSON, sealed whole
    assert SECRET_REASON.encode() in plaintexts[-1]
    assert len({state[:12] for state in states}) == 3  # a fresh nonce for every event
    if not run.db.startswith("postgres"):
        files = b"".join(p.read_bytes() for p in tmp_path.glob("ledger.db*"))
        assert SECRET_REASON.encode() not in files  # nor in the read models (they hold names, not payloads)


def test_without_the_key_or_with_another_it_refuses_in_one_line(run, key, monkeypatch):
    story(run)
    for other, says in (
        (None, "encrypted"),
        (new_key(), "do not decrypt"),
        ("not-a-key", "is not a key"),
        (base64.b64encode(b"short").decode(), "is not a key"),
    ):
        if other is None:
            monkeypatch.delenv("CHRONICLE_CIPHER_KEY")
        else:
            monkeypatch.setenv("CHRONICLE_CIPHER_KEY", other)
        for args in (["log"], ["character", "show", "Bruno"], ["roll", "d20"], ["verify"], ["export"]):
            result = run(*args)
            assert result.exit_code == 2, (other, args, result.output)
            assert result.stdout == "" and says in result.stderr and len(result.stderr.strip().splitlines()) == 1
            assert key not in result.output
    monkeypatch.setenv("CHRONICLE_CIPHER_KEY", key)
    assert len(run.json("log")["events"]) == 3  # nothing was written by the refused commands


def test_an_encrypted_export_imports_into_a_ledger_with_another_key(run_sqlite, key, monkeypatch, tmp_path):
    story(run_sqlite)
    exported = tmp_path / "greyhawk.jsonl"
    exported.write_bytes(run_sqlite("export").stdout_bytes)
    assert SECRET_REASON.encode() in exported.read_bytes()  # export is the readable, portable form
    monkeypatch.setenv("CHRONICLE_CIPHER_KEY", new_key())
    copy = Run(str(tmp_path / "copy.db"))
    assert copy.json("import", str(exported))["events"] == 3
    assert copy.json("verify")["ok"] is True
    assert copy("export").stdout_bytes == exported.read_bytes()
