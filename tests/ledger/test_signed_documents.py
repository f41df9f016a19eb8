"""Documents signed on another device (a player's phone): the application layer takes each once, as its
key's participant, and refuses a replayed nonce, a bad signature, another campaign's or another
document's signature, writing nothing; on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from chronicle.domain.errors import BadSignature, Forbidden
from chronicle.ledger.application.commands import table
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.trust.identity import load_or_create
from chronicle.ledger.trust.signing import sign


@pytest.fixture
def setting(db, tmp_path):
    gm = Ledger(db, by="gm", identity=load_or_create(tmp_path / "gm"))
    phone = load_or_create(tmp_path / "phone")
    gm.execute(table.CampaignNew(name="Greyhawk", system="adnd2e"))
    gm.execute(table.CharacterAdd(name="Bob", stat=["hp=20"]))
    gm.execute(table.CharacterAdd(name="Cy", stat=["hp=20"]))
    gm.execute_document(
        {"command": "participant add", "name": "Ann", "role": "player", "plays": ["Bob"], "key": phone.public_key_text}
    )
    campaign = str(gm.read().campaign.id)
    gm.close()
    server = Ledger(db, by="server", by_given=False, identity=load_or_create(tmp_path / "server"))
    yield server, phone, campaign
    server.close()


def events(ledger: Ledger) -> int:
    return ledger.app.recorder.max_notification_id() or 0


def test_a_document_signed_on_a_phone_is_recorded_once_as_its_player(setting):
    server, phone, campaign = setting
    document = {"command": "injure", "name": "Bob", "damage": 3, "mode": "lethal"}
    signed = sign(phone, campaign, document, "n-1")
    reply = server.execute_document(document, signed)
    assert reply.document["real"] == 3
    *_, last = server.app.events.get(server.read().character_id("Bob"))
    assert last.by == "Ann" and last.signed == signed
    before = events(server)
    with pytest.raises(BadSignature, match="nonce was used before"):
        server.execute_document(document, signed)
    assert events(server) == before


@pytest.mark.parametrize(
    "forged",
    [
        lambda signed: signed.model_copy(update={"signature": signed.signature[:-4] + "AAA="}),
        lambda signed: signed.model_copy(update={"nonce": "n-other"}),
        lambda signed: signed.model_copy(update={"document": {**signed.document, "damage": 30}}),
    ],
    ids=["bad signature", "another nonce", "another document"],
)
def test_a_signature_that_does_not_fit_is_refused_and_writes_nothing(setting, forged):
    server, phone, campaign = setting
    document = {"command": "injure", "name": "Bob", "damage": 3, "mode": "lethal"}
    before = events(server)
    with pytest.raises(BadSignature):
        server.execute_document(document, forged(sign(phone, campaign, document, "n-2")))
    assert events(server) == before


def test_another_campaigns_signature_and_another_players_character_are_refused(setting):
    server, phone, campaign = setting
    document = {"command": "injure", "name": "Bob", "damage": 3, "mode": "lethal"}
    with pytest.raises(BadSignature):
        server.execute_document(document, sign(phone, "00000000-0000-0000-0000-000000000000", document, "n-3"))
    other = {"command": "injure", "name": "Cy", "damage": 3, "mode": "lethal"}
    with pytest.raises(Forbidden, match="Ann does not play 'Cy'"):
        server.execute_document(other, sign(phone, campaign, other, "n-4"))
