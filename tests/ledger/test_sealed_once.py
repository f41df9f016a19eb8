"""Each event a command records is sealed once, with its signature (its events are made unsealed while it
decides, and `seal_with` seals them), alone and in a batch; and a document whose signature the server
checked before it read it is not checked again; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections import Counter
from typing import Any
from uuid import UUID

import pytest

from chronicle.domain.events import Event
from chronicle.ledger.application.commands import potestas, table
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.trust import signing
from chronicle.ledger.trust.identity import load_or_create
from chronicle.ledger.trust.verify import verify


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm", seed=5)
    yield opened
    opened.close()


@pytest.fixture
def seals(monkeypatch) -> Counter[tuple[UUID, int]]:
    """How many times each event was hashed: sealed, or signed after it was sealed (which hashes it again)."""
    counted: Counter[tuple[UUID, int]] = Counter()
    sealed, signed_with = Event.sealed, Event.signed_with

    def sealing(self: Any) -> Any:
        counted[(self.originator_id, self.originator_version)] += 1
        return sealed(self)

    def signing(self: Any, *args: Any) -> Any:
        if "_stored" in (self.__pydantic_private__ or {}):  # sealed already: signing seals it again
            counted[(self.originator_id, self.originator_version)] += 1
        return signed_with(self, *args)

    monkeypatch.setattr(Event, "sealed", sealing)
    monkeypatch.setattr(Event, "signed_with", signing)
    return counted


def test_each_event_of_a_command_is_sealed_once(ledger, seals):
    ledger.execute(table.CampaignNew(name="Once", system="potestas"))
    ledger.execute(table.CharacterAdd(name="Ann", stat=["fort=3"]))
    ledger.execute(potestas.Injure(name="Ann", damage=12, save_roll=9))
    assert len(seals) == 3 and set(seals.values()) == {1}
    report = verify(ledger.read())
    assert report["ok"], report["problems"]
    assert report["signed"] == report["events"] == 3


def test_each_event_of_a_batch_is_sealed_once(ledger, seals):
    ledger.execute(table.CampaignNew(name="Batch", system="potestas"))
    with ledger.app.unit():
        ledger.batch = session = ledger.session()
        try:
            for name in ("Ann", "Bob"):
                ledger.execute(table.CharacterAdd(name=name, stat=["fort=3"]))
            ledger.execute(potestas.Injure(name="Bob", damage=4, save_roll=15))
            ledger.execute(potestas.Injure(name="Bob", damage=9, save_roll=3))
            session.save()
        finally:
            ledger.batch = None
    assert len(seals) == 5 and set(seals.values()) == {1}
    report = verify(ledger.read())
    assert report["ok"], report["problems"]


@pytest.fixture
def server(db, tmp_path):
    gm = Ledger(db, by="gm", identity=load_or_create(tmp_path / "gm"))
    phone = load_or_create(tmp_path / "phone")
    gm.execute(table.CampaignNew(name="Greyhawk", system="potestas"))
    gm.execute(table.CharacterAdd(name="Bob", stat=["fort=3"]))
    gm.execute_document({"command": "participant add", "name": "Ann", "role": "gm", "key": phone.public_key_text})
    campaign = gm.read().campaign.id
    gm.close()
    opened = Ledger(db, by="server", by_given=False, identity=load_or_create(tmp_path / "server"))
    yield opened, phone, campaign
    opened.close()


def test_a_signature_the_server_checked_is_not_checked_again(server, monkeypatch):
    ledger, phone, campaign = server
    checked: list[Any] = []
    valid = signing.valid

    def counted(sent: Any, of: UUID) -> bool:
        checked.append(of)
        return valid(sent, of)

    monkeypatch.setattr(signing, "valid", counted)
    document = {"command": "roll", "notation": "1d6", "roll": 4}
    ledger.execute_document(document, signing.sign(phone, str(campaign), document, "n-1"), verified=campaign)
    assert checked == []
    ledger.execute_document(document, signing.sign(phone, str(campaign), document, "n-2"))
    assert checked == [campaign]
