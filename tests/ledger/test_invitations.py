"""Invitations: a gm's one-time link, taken up by a device that signs `participant join` with a key of its
own, which becomes the invited participant's; once, within 24 hours, and `verify` checks each join
against the invitation it shows; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from chronicle.domain.errors import BadSignature, Forbidden, Refusal
from chronicle.ledger.application import clock
from chronicle.ledger.application.commands import table
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.trust.identity import load_or_create
from chronicle.ledger.trust.invitations import invitation_book
from chronicle.ledger.trust.signatures import in_log_order
from chronicle.ledger.trust.signing import sign
from chronicle.ledger.trust.verify import verify


@pytest.fixture
def setting(db, tmp_path):
    gm = Ledger(db, by="gm", identity=load_or_create(tmp_path / "gm"))
    gm.execute(table.CampaignNew(name="Sartar", system="pendragon-pass"))
    gm.execute(table.CharacterAdd(name="Vasana", stat=["siz=15", "con=13"]))
    gm.execute(table.CharacterAdd(name="Korol", stat=["siz=12", "con=11"]))
    server = Ledger(db, by="server", by_given=False)
    yield gm, server, str(gm.read().campaign.id), tmp_path
    gm.close()
    server.close()


def invite(gm: Ledger, name: str = "Ann", **more) -> str:
    reply = gm.execute_document({"command": "participant invite", "name": name, "plays": ["vasana"], **more})
    assert reply.document["url"].startswith("http://127.0.0.1:8765/join/")
    return reply.document["url"].rsplit("/", 1)[1]


def join(server: Ledger, campaign: str, token: str, phone, nonce: str = "join-1"):
    document = {"command": "participant join", "invitation": token}
    return server.execute_document(document, sign(phone, campaign, document, nonce))


def events(ledger: Ledger) -> int:
    return ledger.app.recorder.max_notification_id() or 0


def test_a_device_joins_by_its_invitation_once_and_records_as_the_player(setting):
    gm, server, campaign, folder = setting
    token = invite(gm)
    phone = load_or_create(folder / "phone")
    reply = join(server, campaign, token, phone)
    assert reply.document["name"] == "Ann" and reply.document["plays"] == ["Vasana"]
    assert reply.document["key"] == phone.public_key_text and "Ann joins campaign Sartar as a player" in reply.text
    found = invitation_book(server.app).find(reply_hash := _hash(token))
    assert found is not None and found.used and found.campaign == campaign and reply_hash not in token

    wound = {"command": "injure", "name": "Vasana", "damage": 4}
    server.execute_document(wound, sign(phone, campaign, wound, "wound-1"))
    *_, last = server.app.events.get(server.read().character_id("Vasana"))
    assert last.by == "Ann" and last.signed.key == phone.public_key_text

    before = events(server)  # the link works once, whoever shows it again
    with pytest.raises(BadSignature, match="no open invitation"):
        join(server, campaign, token, load_or_create(folder / "thief"), "join-2")
    assert events(server) == before
    report = verify(gm.read())
    assert report["ok"], report["problems"]


def test_an_invitation_is_a_gms_and_its_token_is_never_recorded(setting):
    gm, server, campaign, folder = setting
    token = invite(gm)
    phone = load_or_create(folder / "phone")
    join(server, campaign, token, phone)
    document = {"command": "participant invite", "name": "Eve"}
    with pytest.raises(Forbidden, match="Ann is a player: participant invite needs a gm"):
        server.execute_document(document, sign(phone, campaign, document, "invite-1"))
    invited = next(e for e in gm.app.events.get(gm.read().campaign.id) if type(e).__name__ == "ParticipantInvited")
    assert token not in invited.model_dump_json() and invited.invitation == _hash(token)


def test_an_expired_invitation_and_a_key_already_taken_are_refused(setting, monkeypatch):
    gm, server, campaign, folder = setting
    token = invite(gm)
    phone = load_or_create(folder / "phone")
    later = clock.utc_now() + timedelta(hours=25)
    monkeypatch.setattr(clock, "utc_now", lambda: later)
    before = events(server)
    with pytest.raises(Refusal, match="that invitation expired"):
        join(server, campaign, token, phone)
    monkeypatch.undo()
    taken = load_or_create(folder / "gm")  # the gm's own key
    with pytest.raises(Refusal, match="that key belongs to 'gm' already"):
        join(server, campaign, invite(gm, "Bob"), taken, "join-2")
    assert events(server) == before + 1  # Bob's invitation only


def test_verify_names_a_join_that_no_open_invitation_allows():
    key = "ed25519:" + "A" * 43 + "="
    made = {"name": "Ann", "role": "player", "plays": ["Vasana"], "key": key, "invitation": "ab" * 32}
    made["timestamp"] = "2026-12-05T10:00:00+00:00"
    invited = {**made, "expires": "2026-12-06T09:00:00+00:00", "timestamp": "2026-12-05T09:00:00+00:00"}
    del invited["key"]
    join = (5, "Ann", key, "invitation", "ab" * 32, "participant join")
    alone: dict[str, Any] = {"unsigned": 0, "signers": [join], "changes": [(5, "ParticipantSet", made)]}
    _, _, problems = in_log_order([alone], "Sartar", False)
    assert problems == [
        {
            "position": 5,
            "problem": "recorded by Ann: a join whose token is no open invitation's (never made, taken up already, "
            "or of another campaign)",
        }
    ]
    invited_first = {**alone, "changes": [(3, "ParticipantInvited", invited), (5, "ParticipantSet", made)]}
    assert in_log_order([invited_first], "Sartar", False)[2] == []
    twice = {
        **invited_first,
        "signers": [join, (7, "Ann", key, "invitation", "ab" * 32, "participant join")],
        "changes": [*invited_first["changes"], (7, "ParticipantSet", {**made, "timestamp": made["timestamp"]})],
    }
    assert [p["position"] for p in in_log_order([twice], "Sartar", False)[2]] == [7]
    late = {**invited_first, "changes": [(3, "ParticipantInvited", invited), (5, "ParticipantSet", {**made})]}
    late["changes"][1][2]["timestamp"] = "2026-12-06T09:00:01+00:00"
    assert "after its invitation expired" in in_log_order([late], "Sartar", False)[2][0]["problem"]
    other_key = {**invited_first, "signers": [(5, "Ann", "ed25519:" + "B" * 43 + "=", *join[3:])]}
    assert "another key than the one that signed it" in in_log_order([other_key], "Sartar", False)[2][0]["problem"]


def _hash(token: str) -> str:
    from chronicle.domain.participants import invitation_hash

    return invitation_hash(token)
