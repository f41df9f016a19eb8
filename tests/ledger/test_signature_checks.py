"""`verify` checks every signature, each distinct (key, signature, message) once, in a forked helper
process while it re-derives the log (when there are enough of them, and the process has no other thread):
the answers and the report are those of checking each signature in turn, and a helper that dies leaves
no check unanswered."""

from __future__ import annotations

import base64
import os
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from reliability.forge import rechain

from chronicle.domain.participants import KEY_PREFIX
from chronicle.ledger.application.commands import potestas, table
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.trust import signatures
from chronicle.ledger.trust.signatures import Deferred, _Helper
from chronicle.ledger.trust.signing import verifies
from chronicle.ledger.trust.verify import verify

Check = tuple[str, str, bytes]


def _checks(count: int) -> list[Check]:
    """COUNT checks, every fifth one wrong in one of the ways a stored signature can be."""
    key = Ed25519PrivateKey.generate()
    text = KEY_PREFIX + base64.b64encode(key.public_key().public_bytes_raw()).decode()
    made: list[Check] = []
    for i in range(count):
        message = b'{"campaign":"c","document":{"n":%d},"nonce":"x"}' % i
        signature = base64.b64encode(key.sign(message)).decode()
        if i % 5 == 1:
            message += b" "  # the document changed
        elif i % 5 == 3:
            signature = "not base64!"
        elif i % 10 == 4:
            text = text.removeprefix(KEY_PREFIX)  # (from here on) a key without its prefix
        made.append((text, signature, message))
    return made


def _settled(checks: list[Check], helper: bool) -> set[int]:
    """The checks (by their place in CHECKS) whose waiters are refused."""
    deferred: Deferred[int] = Deferred(helper)
    for i, check in enumerate(checks):
        deferred.add(*check, i)
    refused = deferred.settle()
    assert len(refused) == len(set(refused))  # each waiter once
    return set(refused)


@pytest.fixture
def helpers(monkeypatch) -> list[Any]:
    """The helpers started (a test process has no other thread; if it had, none would start), as if the
    machine had a core to spare (a loaded one has none, and then no helper is started)."""
    monkeypatch.setattr(signatures, "core_to_spare", lambda: True)
    started: list[Any] = []
    start = _Helper.start.__func__  # type: ignore[attr-defined]  # (a classmethod's function)

    def counted(cls: type[_Helper]) -> _Helper | None:
        found = start(cls)
        started.append(found)
        return found

    monkeypatch.setattr(_Helper, "start", classmethod(counted))
    return started


def test_deferred_checks_answer_as_each_check_in_turn_with_or_without_a_helper(helpers, monkeypatch):
    checks = _checks(300)
    checks += checks[:40] + checks[290:]  # the same signatures again: answered without checking them again
    wanted = {i for i, check in enumerate(checks) if not verifies(*check)}
    assert 0 < len(wanted) < len(checks)
    made: list[int] = []
    bad_ones = signatures._bad_ones

    def counted(chunk: list[Check]) -> list[int]:
        made.append(len(chunk))
        return bad_ones(chunk)

    monkeypatch.setattr(signatures, "_bad_ones", counted)
    alone = _settled(checks, helper=False)
    assert not helpers and sum(made) == 300
    helped = _settled(checks, helper=True)
    assert alone == helped == wanted
    assert len(helpers) == 1 and helpers[0] is not None
    assert sum(made) < 600  # (the helper's are not counted here)


def test_checks_a_helper_did_not_answer_are_made_here(helpers, monkeypatch):
    receive = _Helper.receive
    answered: list[object] = []

    def dies_after_one(self: _Helper) -> Any:
        if answered:
            os.kill(self.pid, 9)
            return None
        answered.append(receive(self))
        return answered[-1]

    monkeypatch.setattr(_Helper, "receive", dies_after_one)
    checks = _checks(400)
    helped = _settled(checks, helper=True)
    assert helped == {i for i, check in enumerate(checks) if not verifies(*check)}
    assert helpers and answered


def _left(pid: int) -> bool:
    """Whether process PID has ended (gone, or a zombie not yet reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_helper_left_behind_by_a_verify_that_failed_midway_leaves_and_is_reaped(helpers):
    deferred: Deferred[int] = Deferred(helper=True)
    for i, check in enumerate(_checks(40)):
        deferred.add(*check, i)
    assert len(helpers) == 1 and helpers[0] is not None
    pid = helpers.pop().pid
    assert not _left(pid)
    del deferred  # never settled
    deadline = time.monotonic() + 10
    while not _left(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _left(pid)
    _settled(_checks(40), helper=True)  # the next helper's end reaps it, if it was not reaped already
    assert not Path(f"/proc/{pid}").exists()


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm")  # unseeded: a nonce of its own for each command, so 92 distinct signatures
    opened.execute(table.CampaignNew(name="Forged", system="potestas"))
    opened.execute(table.CharacterAdd(name="Brand", stat=["fort=30"]))
    for i in range(90):
        if i % 3:
            opened.execute(potestas.Injure(name="Brand", damage=1, save_roll=15))
        else:
            opened.execute(table.Roll(notation="d20"))  # the campaign's
    yield opened
    opened.close()


def _told_edited(db: str, position: int) -> None:
    from reliability.edges import sql

    sql(db, "UPDATE chronicle_told SET told = ? WHERE position = ?", ("edited", position))


def test_a_forged_signature_is_named_once_as_each_check_in_turn_names_it(ledger, monkeypatch, helpers):
    positions = ledger.app.index.log(ledger.read().campaign.id)
    # a roll of the campaign, whose later events are all rolls (the forger hashes events of a first class version)
    forged, retold = positions[41], positions[42]

    def forge(state: dict[str, Any]) -> None:
        state["signed"]["document"]["notation"] = "d6"

    rechain(ledger.target, forged, forge)
    _told_edited(ledger.target, forged)  # not named: its event's signature is
    _told_edited(ledger.target, retold)  # named
    helped = verify(ledger.read())
    assert len(helpers) == 1  # (started on SQLite; on PostgreSQL the pool's threads keep the checks here)
    monkeypatch.setattr(Deferred, "HELP_FROM", 10**9)
    alone = verify(ledger.read())
    monkeypatch.setattr(signatures.SignatureCheck, "__init__", _immediate(signatures.SignatureCheck.__init__))
    in_turn = verify(ledger.read())
    assert helped == alone == in_turn
    assert not helped["ok"] and helped["signed"] == helped["events"] == 92
    assert [p["position"] for p in helped["problems"]] == [forged, retold]
    assert "does not verify" in helped["problems"][0]["problem"]


def _immediate(init: Any) -> Any:
    def checking_in_turn(self: Any, campaign_id: Any, system: Any, *_: bool, **__: bool) -> None:
        init(self, campaign_id, system)

    return checking_in_turn
