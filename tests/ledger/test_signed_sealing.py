"""A signed command seals its events again with the signature: the stored JSON and the hash are those of
the event as it is (dumped afresh, in its fields' order), the chain runs on, and only the events the command
itself recorded are signed, however many aggregates its session holds (a batch's)."""

from __future__ import annotations

from typing import Any

import pytest

from chronicle.domain.events import Event
from chronicle.ledger.application.commands import adnd2e, potestas, table
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.trust.verify import verify

KEPT = {"originator_id", "originator_version"}


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm", seed=11)
    yield opened
    opened.close()


def _as_dumped(event: Any) -> None:
    dumped = event.model_dump(mode="json", exclude=KEPT)
    assert list(event.stored_state()) == list(dumped)  # the same bytes stored: the same keys in the same order
    assert event.stored_state() == dumped
    assert event.content_hash() == event.hash


def test_signed_events_are_sealed_as_they_are_dumped(ledger, monkeypatch):
    sealed: list[Any] = []
    signed_with = Event.signed_with

    def kept(self: Any, *args: Any) -> Any:
        sealed.append(self)
        return signed_with(self, *args)

    monkeypatch.setattr(Event, "signed_with", kept)
    ledger.execute(table.CampaignNew(name="Sealed", system="adnd2e"))
    ledger.execute(table.CharacterAdd(name="Ann", stat=["hp=9"]))
    ledger.execute(table.CharacterAdd(name="Bob", stat=["hp=30"]))
    ledger.execute(adnd2e.Attack(attacker="Ann", target="Bob", roll=20))
    ledger.execute(table.Roll.model_validate({"notation": "2d6", "for": "Bob"}))
    assert {type(event).__name__ for event in sealed} >= {"CampaignStarted", "CharacterRegistered", "DiceRolled"}
    assert len(sealed) >= 6  # the attack recorded a hit as well
    for event in sealed:
        _as_dumped(event)
    report = verify(ledger.read())
    assert report["ok"], report["problems"]
    assert report["signed"] == report["events"] and report["unsigned"] == 0


def test_in_a_batch_only_what_a_command_recorded_takes_its_signature(ledger):
    ledger.execute(table.CampaignNew(name="Batch", system="potestas"))
    with ledger.app.unit():
        ledger.batch = session = ledger.session()
        try:
            for name in ("Ann", "Bob", "Cid"):
                ledger.execute(table.CharacterAdd(name=name, stat=["fort=3"]))
            ledger.execute(potestas.Injure(name="Bob", damage=4, save_roll=15))
            ledger.execute(potestas.Injure(name="Ann", damage=2, save_roll=15))
            held = {aggregate.name: aggregate for aggregate in session.held_all() if hasattr(aggregate, "sheet")}
            documents = {name: [e.signed.document for e in a.pending_events] for name, a in held.items()}
            session.save()
        finally:
            ledger.batch = None
    assert [d["command"] for d in documents["Ann"]] == ["character add", "injure"]
    assert [d["command"] for d in documents["Bob"]] == ["character add", "injure"]
    assert [d["command"] for d in documents["Cid"]] == ["character add"]
    assert documents["Ann"][1]["damage"] == 2 and documents["Bob"][1]["damage"] == 4
    report = verify(ledger.read())
    assert report["ok"], report["problems"]
    assert report["signed"] == report["events"] == 6
