"""The table writes over HTTP (`serve --writes`), on SQLite and PostgreSQL: a document signed on a player's
device is recorded once as that player; a replayed nonce, a bad signature, a removed participant's key, an
oversized body and another campaign's document are refused with the contract's status and nothing is
written; the witness's checkpoint and proofs; every answer's security headers."""

from __future__ import annotations

import base64
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest
from conftest import Run
from reliability.forge import rechain
from starlette.testclient import TestClient

from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading
from chronicle.cli.web.security import Buckets
from chronicle.cli.web.writes import Writer
from chronicle.ledger.trust import merkle
from chronicle.ledger.trust.identity import Identity, load_or_create
from chronicle.ledger.trust.signing import Signer, sign


@dataclass
class Table:
    run: Run
    client: TestClient
    writer: Writer
    campaign: str  # Sartar's id
    other: str  # Glorantha's id
    phone: Identity  # Ann's device key (she plays Vasana)
    said: list[str]
    folder: Path

    def events(self) -> int:
        return len(self.run.json("log", "--campaign", "Sartar")["events"])

    # the TestClient's answer: a Response of httpx2 where Starlette finds that package installed, else of httpx
    def post(self, document: dict, nonce: str, signer: Signer | None = None, campaign: str | None = None, **changed):
        signed = sign(signer or self.phone, campaign or self.campaign, document, nonce)
        body = {"campaign": self.campaign, **signed.model_dump(), **changed}
        return self.client.post("/api/commands", json=body)


@pytest.fixture
def table(run, tmp_path) -> Iterator[Table]:
    run.json("campaign", "new", "Glorantha", "--system", "pendragon-pass")
    run.json("character", "add", "Orlmarth", "--stat", "siz=14", "--stat", "con=12")
    other = run.json("campaign", "show")["id"]
    run.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13")
    run.json("character", "add", "Korol", "--stat", "siz=12", "--stat", "con=11")
    campaign = run.json("campaign", "show")["id"]
    said: list[str] = []
    data, writer = Reading(run.db), Writer(run.db, said.append)
    phone = load_or_create(tmp_path / "phone")
    with TestClient(build(data, said.append, writes=writer)) as client:
        table = Table(run, client, writer, campaign, other, phone, said, tmp_path)
        url = run.json("--campaign", "Sartar", "participant", "invite", "Ann", "--plays", "Vasana")["url"]
        token = url.rsplit("/", 1)[1]
        joined = table.post({"command": "participant join", "invitation": token}, "join-1")
        assert joined.status_code == 200, joined.text
        assert joined.json()["name"] == "Ann" and joined.json()["key"] == phone.public_key_text
        yield table
    writer.close()
    data.close()


def error(response, status: int, code: str | None = None) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    if code is not None:
        assert body["error"]["code"] == code
    return body["error"]["message"]


WOUND = {"command": "injure", "name": "Vasana", "damage": 4}


def test_a_signed_write_is_recorded_as_its_player_with_the_commands_json_and_sentences(table):
    answer = table.post(WOUND, "wound-1")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert {"event", "version", "condition"} <= set(body)  # `injure --json`
    assert body["sentences"].startswith("Vasana is wounded: wound #1")
    last = table.run.json("log", "--campaign", "Sartar", "--tail", "1")["events"][-1]
    assert last["by"] == "Ann" and last["key"] == table.phone.public_key_text and last["id"] == body["event"]
    verified = table.run.json("verify", "--campaign", "Sartar")
    assert verified["ok"], verified["problems"]


def test_a_replayed_nonce_and_a_bad_signature_are_401_and_write_nothing(table):
    first = table.post(WOUND, "wound-1")
    assert first.status_code == 200
    before = table.events()
    again = table.client.post("/api/commands", json=json.loads(first.request.content))
    assert "nonce was used before" in error(again, 401, "bad_signature")
    forged = table.post(WOUND, "wound-2", signature=base64.b64encode(b"\0" * 64).decode())
    assert "does not verify" in error(forged, 401, "bad_signature")
    signed = sign(table.phone, table.campaign, WOUND, "wound-3").model_dump()
    signed["document"] = {**WOUND, "damage": 40}
    assert "does not verify" in error(table.client.post("/api/commands", json=signed), 401)
    for missing in ("key", "nonce", "signature"):
        body = sign(table.phone, table.campaign, WOUND, "wound-4").model_dump()
        del body[missing]
        assert "a write is signed" in error(table.client.post("/api/commands", json=body), 401)
    assert table.events() == before


def test_a_removed_participants_key_is_refused_and_writes_nothing(table):
    table.run.json("--campaign", "Sartar", "participant", "remove", "Ann", "--reason", "moved away")
    before = table.events()
    message = error(table.post(WOUND, "wound-1"), 401, "bad_signature")
    assert "is no participant of campaign 'Sartar'" in message
    assert table.events() == before


def test_a_players_attempt_on_anothers_character_is_403_and_a_rules_refusal_409(table):
    before = table.events()
    message = error(table.post({"command": "injure", "name": "Korol", "damage": 4}, "korol-1"), 403, "forbidden")
    assert message == "Ann does not play 'Korol': a player records injure only for the characters they play"
    assert "needs a gm" in error(table.post({"command": "session start"}, "session-1"), 403)
    assert table.events() == before
    assert table.post(WOUND, "wound-1").status_code == 200
    aid = {"command": "first-aid", "name": "Vasana", "wound": 1, "heal_roll": 2}
    assert table.post(aid, "aid-1").status_code == 200
    before = table.events()
    assert "already had First Aid" in error(table.post(aid, "aid-2"), 409, "refused")
    assert table.events() == before


def test_bad_input_is_400_naming_what_is_wrong(table):
    before = table.events()
    assert "'damage'" in error(table.post({**WOUND, "damage": "four"}, "bad-1"), 400, "bad_input")
    assert "no command named" in error(table.post({"command": "fly", "name": "Vasana"}, "bad-2"), 400)
    assert "JSON object" in error(table.client.post("/api/commands", content=b"[1, 2"), 400)
    assert "unknown key 'extra'" in error(table.post(WOUND, "bad-3", extra=1), 400)
    assert table.events() == before


def test_a_document_of_another_campaign_is_refused_and_writes_nothing(table):
    before = table.events()
    # signed for another campaign: it does not verify for this one
    assert "does not verify" in error(table.post(WOUND, "other-1", campaign=table.other), 401)
    # a character of another campaign: no character of this campaign, whoever names it
    other = {"command": "injure", "name": "Orlmarth", "damage": 4}
    assert "named 'Orlmarth'" in error(table.post(other, "other-2"), 400, "not_found")
    tablet = load_or_create(table.folder / "tablet")
    url = table.run.json("--campaign", "Sartar", "participant", "invite", "Gwen", "--role", "gm")["url"]
    joined = table.post({"command": "participant join", "invitation": url.rsplit("/", 1)[1]}, "join-g", tablet)
    assert joined.json()["role"] == "gm"
    before = table.events()
    # a character the campaign lacks, named in a command document: bad input (the CLI's exit 2), not a page
    # that is not there; the page whose address names it is
    message = error(table.post(other, "other-5", tablet), 400, "not_found")
    assert message == "no character in campaign 'Sartar' named 'Orlmarth'"
    assert table.client.get("/c/Sartar/Orlmarth").status_code == 404
    # sent to the other campaign, where Ann takes no part (and Vasana is no character)
    sent = table.post(WOUND, "other-3", campaign=table.other)
    assert sent.status_code == 401
    theirs = {"command": "injure", "name": "Orlmarth", "damage": 4}
    to_other = sign(table.phone, table.other, theirs, "other-4").model_dump()
    assert "no participant" in error(
        table.client.post("/api/commands", json={**to_other, "campaign": table.other}), 401
    )
    assert table.events() == before


def test_an_oversized_body_is_413_without_being_read(table):
    before = table.events()
    padded = table.post({"command": "note", "text": "x" * 70000, "for": "Vasana"}, "big-1")
    assert "at most 64 KiB" in error(padded, 413, "too_large")
    declared = table.client.post("/api/commands", content=b"{}", headers={"Content-Length": "9999999"})
    assert declared.status_code == 413
    assert table.events() == before


def test_writes_from_one_key_are_rate_limited(table):
    table.writer.buckets = Buckets(burst=2, rate=0.01)
    assert [table.post(WOUND, f"rate-{n}").status_code for n in range(2)] == [200, 200]
    refused = table.post(WOUND, "rate-3")
    assert "too many writes from this key" in error(refused, 429, "too_many")
    assert int(refused.headers["Retry-After"]) >= 1


def test_the_participants_forms_follow_their_role_and_system(table):
    asked = {"campaign": table.campaign, "key": table.phone.public_key_text, "character": "Vasana"}
    me = table.client.get("/api/me", params=asked).json()
    assert me["participant"] == {"name": "Ann", "role": "player", "plays": ["Vasana"]}
    commands = [action["command"] for action in me["actions"]]
    assert commands[:3] == ["injure", "check", "tactic"] and "rest" in commands and "oath swear" in commands
    assert "first-aid" not in commands  # Vasana has no wound to treat
    assert "status award" not in commands and "session start" not in commands  # a gm's
    injure = next(action for action in me["actions"] if action["command"] == "injure")
    assert injure["character"] == "name" and injure["schema"]["properties"]["damage"]["type"] == "integer"
    assert "dying-save" not in commands  # potestas only
    stranger = load_or_create(table.folder / "stranger")
    none = table.client.get("/api/me", params={"campaign": table.campaign, "key": stranger.public_key_text}).json()
    assert none["participant"] is None and none["actions"] == []
    assert table.client.get("/api/me", params={"campaign": "nope"}).status_code == 404


def test_a_join_page_says_whom_it_invites_and_works_once(table):
    url = table.run.json("--campaign", "Sartar", "participant", "invite", "Bo<b>b", "--plays", "Korol")["url"]
    path = "/join/" + url.rsplit("/", 1)[1]
    page = table.client.get(path)
    assert page.status_code == 200 and "Bo&lt;b&gt;b is invited" in page.text and "Bo<b>b" not in page.text
    assert 'id="join-button"' in page.text and "<script>" not in page.text
    assert table.client.get("/join/unknown-token").status_code == 404
    bob = load_or_create(table.folder / "bob")
    joined = table.post({"command": "participant join", "invitation": url.rsplit("/", 1)[1]}, "join-b", signer=bob)
    assert joined.status_code == 200, joined.text
    assert table.client.get(path).status_code == 410
    replayed = table.post({"command": "participant join", "invitation": url.rsplit("/", 1)[1]}, "join-c", signer=bob)
    assert "no open invitation" in error(replayed, 401)


def test_the_witness_gives_the_tree_and_proofs_and_says_when_the_log_was_rewritten(table, monkeypatch):
    from chronicle.cli.web import witness

    monkeypatch.setattr(witness, "SHARE", float("inf"))  # the log compared at every change, however long the last took
    first = table.client.get("/checkpoint", params={"campaign": table.campaign}).json()
    assert first["campaign"] == table.campaign and first["size"] == table.events() and len(first["ledger"]) == 32
    table.post(WOUND, "wound-1")
    proof = table.client.get("/proof", params={"campaign": table.campaign, "from": first["size"]}).json()
    assert proof["size"] == first["size"] + 1
    decoded = [base64.b64decode(h) for h in proof["proof"]]
    roots = base64.b64decode(first["root"]), base64.b64decode(proof["root"])
    assert merkle.verify_consistency(first["size"], proof["size"], *roots, decoded)
    too_many = table.client.get("/proof", params={"campaign": table.campaign, "from": proof["size"] + 5})
    assert "events were removed" in error(too_many, 409, "rewritten")
    assert table.client.get("/proof", params={"campaign": table.campaign, "from": "-1"}).status_code == 400

    log = table.run.json("log", "--campaign", "Sartar")["events"]
    korol = next(e["position"] for e in log if e["type"] == "CharacterRegistered" and e["character"] == "Korol")
    rechain(table.run.db, korol, lambda state: state["sheet"].update(siz=18))
    assert table.run("--campaign", "Sartar", "note", "a quiet night").exit_code == 1  # this chronicle saw it before
    elsewhere = table.folder / "laptop"  # the gm's key on a machine that saw nothing: its event goes in
    elsewhere.mkdir(mode=0o700)
    shutil.copy(Path(os.environ["CHRONICLE_HOME"]) / "identity.key", elsewhere / "identity.key")
    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("CHRONICLE_HOME", str(elsewhere))
        table.run.json("--campaign", "Sartar", "note", "a quiet night")  # the log grows: the server compares again
    rewritten = table.client.get("/proof", params={"campaign": table.campaign, "from": proof["size"]})
    assert f"#{korol}" in error(rewritten, 409, "rewritten")
    assert table.client.get("/checkpoint", params={"campaign": table.campaign}).status_code == 409


def test_every_answer_carries_the_security_headers_and_no_cookie(table):
    for path in ("/", "/log", "/static/act.js", f"/checkpoint?campaign={table.campaign}", "/api/me?campaign=x"):
        answer = table.client.get(path)
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
        assert answer.headers["x-content-type-options"] == "nosniff" and "set-cookie" not in answer.headers
    page = table.client.get("/").text
    assert "<script>" not in page and 'src="/static/act.js"' in page and 'src="/static/witness.js"' in page


def test_the_server_listens_on_this_machine_alone_unless_told():
    from chronicle.cli.serve import serve

    context = click.Context(serve)
    defaults = {param.name: param.get_default(context) for param in serve.params}
    assert defaults["host"] == "127.0.0.1"
    assert defaults["writes"] is False


def test_without_writes_every_write_is_405(run):
    run.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    data = Reading(run.db)
    said: list[str] = []
    with TestClient(build(data, said.append)) as client:
        assert client.post("/api/commands", json={}).status_code == 405
        assert client.get("/api/me").status_code == 404
        assert client.get("/join/abc").status_code == 404
        page = client.get("/").text
        assert 'src="/static/act.js"' not in page and 'src="/static/witness.js"' in page
    data.close()


def test_a_signed_write_checks_its_signature_once_and_loads_each_aggregate_once(table, monkeypatch):
    """The server checks the signature before it reads the document, and the command does not check it
    again; the campaign's system, which picks the document's model, comes from its row, so the campaign
    is loaded once, by the command that decides."""
    from chronicle.ledger.store import snapshots
    from chronicle.ledger.trust import signing

    checked: list[object] = []
    loaded: list[object] = []
    verifies, load = signing.verifies, snapshots.load

    def verified(*args: Any) -> bool:
        checked.append(args)
        return verifies(*args)

    def counted(app: Any, ident: Any, *more: Any) -> Any:
        loaded.append(ident)
        return load(app, ident, *more)

    monkeypatch.setattr(signing, "verifies", verified)
    monkeypatch.setattr(snapshots, "load", counted)
    assert table.post(WOUND, "once-1").status_code == 200
    assert len(checked) == 1
    assert len(loaded) == len(set(loaded)) == 2  # the campaign and Vasana
