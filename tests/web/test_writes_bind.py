"""What a request to the table view binds, on SQLite and PostgreSQL: a signed command the log publishes (signed at
the command line, in a batch or over the web) replayed over the web is 401 and writes nothing, in the ledger and
in an imported copy of it; a request signed for one ledger's campaign does not fit another ledger's campaign of
the same name; two replays racing each other cannot both land; junk naming a player's key does not lock them
out; the contract's codes for a character the campaign lacks, a number beyond 64 bits and a campaign started
from a device."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from conftest import Run, fresh_postgres_database
from starlette.testclient import TestClient

from chronicle.cli.main import chronicle
from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading
from chronicle.cli.web.writes import Writer
from chronicle.ledger.trust.identity import load_or_create
from chronicle.ledger.trust.signing import sign

from . import test_writes_http
from .test_writes_http import WOUND, error

table = test_writes_http.table  # the fixture: Sartar and Glorantha, Ann's phone joined as Vasana's player


def published(run, position: int) -> dict:
    """The signed block `log --json` publishes of the event at POSITION: what anyone reading the log has."""
    event = next(e for e in run.json("log", "--campaign", "Sartar")["events"] if e["position"] == position)
    return event["data"]["signed"]


def newest(run) -> int:
    return run.json("log", "--campaign", "Sartar", "--tail", "1")["events"][-1]["position"]


def test_a_command_signed_at_the_command_line_or_in_a_batch_replayed_over_the_web_is_401(table):
    run = table.run
    run.json("--campaign", "Sartar", "note", "the gm's note", "--for", "Vasana")
    noted = published(run, newest(run))
    run.json("--campaign", "Sartar", "batch", "-", input="roll d20 --for Korol\n")
    rolled = published(run, newest(run))
    before = table.events()
    for signed in (noted, rolled):
        replayed = table.client.post("/api/commands", json={"campaign": table.campaign, **signed})
        assert "nonce was used before" in error(replayed, 401, "bad_signature")
    assert table.events() == before


def test_a_removed_player_is_not_added_again_by_replaying_the_gms_own_participant_add(table):
    run = table.run
    tablet = load_or_create(table.folder / "tablet")
    run.json("--campaign", "Sartar", "participant", "add", "Bo", "--role", "player", "--key", tablet.public_key_text)
    added = published(run, newest(run))
    run.json("--campaign", "Sartar", "participant", "remove", "Bo", "--reason", "left the table")
    before = table.events()
    replayed = table.client.post("/api/commands", json={"campaign": table.campaign, **added})
    assert replayed.status_code == 401, replayed.text
    assert table.events() == before
    assert "Bo" not in [p["name"] for p in run.json("--campaign", "Sartar", "participant", "list")["participants"]]
    refused = table.post({"command": "note", "text": "back", "for": "Vasana"}, "bo-1", tablet)
    assert "no participant" in error(refused, 401, "bad_signature")


def test_a_request_spent_in_a_ledger_is_refused_by_an_imported_copy_of_it(table, tmp_path):
    first = table.post(WOUND, "wound-1")
    assert first.status_code == 200, first.text
    exported = tmp_path / "sartar.jsonl"
    assert table.run("--campaign", "Sartar", "export", "-o", str(exported)).exit_code == 0
    postgres = table.run.db.startswith("postgresql")
    copy = Run(fresh_postgres_database(table.run.db) if postgres else str(tmp_path / "copy.db"))
    assert copy.json("import", str(exported))["events"] > 0
    data, writer = Reading(copy.db), Writer(copy.db, lambda _: None)
    try:
        with TestClient(build(data, lambda _: None, writes=writer)) as client:
            replayed = client.post("/api/commands", json=json.loads(first.request.content))
            assert "nonce was used before" in error(replayed, 401, "bad_signature")
    finally:
        writer.close()
        data.close()


def test_two_ledgers_campaigns_of_one_name_have_ids_no_signature_fits_both(tmp_path, monkeypatch):
    monkeypatch.setenv("CHRONICLE_HOME", str(tmp_path / "home"))
    ledgers = []
    for name in ("a.db", "b.db"):
        unseeded = Run(str(tmp_path / name))  # (no --seed: a seeded ledger draws its ids as its dice)
        done = unseeded.runner.invoke(
            chronicle, ["--db", unseeded.db, "--json", "campaign", "new", "Greyhawk", "--system", "potestas"]
        )
        assert done.exit_code == 0, done.output
        ledgers.append((unseeded, json.loads(done.stdout)["id"]))
    (a, a_id), (b, b_id) = ledgers
    assert a_id != b_id
    gm = load_or_create()
    data, writer = Reading(b.db), Writer(b.db, lambda _: None)
    try:
        with TestClient(build(data, lambda _: None, writes=writer)) as client:
            signed = sign(gm, a_id, {"command": "session start"}, "session-1").model_dump()
            answer = client.post("/api/commands", json={"campaign": b_id, **signed})
            assert "does not verify" in error(answer, 401, "bad_signature")
    finally:
        writer.close()
        data.close()


def test_two_replays_racing_each_other_cannot_both_land(table):
    body = sign(table.phone, table.campaign, WOUND, "race-1").model_dump()
    other = Writer(table.run.db, lambda _: None)
    data = Reading(table.run.db)
    answers: list[int] = []
    try:
        with TestClient(build(data, lambda _: None, writes=other)) as second:
            clients = [table.client, second]
            start = threading.Barrier(2)

            def send(client: TestClient) -> None:
                start.wait()
                answers.append(client.post("/api/commands", json={"campaign": table.campaign, **body}).status_code)

            threads = [threading.Thread(target=send, args=(client,)) for client in clients]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    finally:
        other.close()
        data.close()
    assert sorted(answers) == [200, 401]
    wounds = [e for e in table.run.json("log", "--campaign", "Sartar", "Vasana")["events"] if e["type"] == "Injured"]
    assert len(wounds) == 1


def test_junk_naming_a_players_key_does_not_lock_them_out(table):
    forged = sign(load_or_create(table.folder / "mallory"), table.campaign, WOUND, "junk")
    for n in range(40):
        junk = {**forged.model_dump(), "key": table.phone.public_key_text, "nonce": f"junk-{n}"}
        assert table.client.post("/api/commands", json={"campaign": table.campaign, **junk}).status_code == 401
    answer = table.post(WOUND, "real-1")
    assert answer.status_code == 200, answer.text


def test_a_character_the_campaign_lacks_a_number_beyond_64_bits_and_a_campaign_started_from_a_device(table):
    before = table.events()
    lacking = table.post({"command": "injure", "name": "Nobody", "damage": 4}, "lack-1")
    assert "no character in campaign 'Sartar' named 'Nobody'" in error(lacking, 400, "not_found")
    huge = table.post({**WOUND, "damage": 2**70}, "huge-1")
    assert error(huge, 400).startswith("injure:")
    junk_huge = {
        **sign(table.phone, table.campaign, WOUND, "huge-2").model_dump(),
        "document": {**WOUND, "damage": 2**70},
    }
    assert table.client.post("/api/commands", json={"campaign": table.campaign, **junk_huge}).status_code == 400
    started = table.post({"command": "campaign new", "name": "Mine", "system": "potestas"}, "new-1")
    assert "run on the ledger's own machine" in error(started, 403, "forbidden")
    assert table.events() == before
    assert [c["name"] for c in table.run.json("campaign", "list")["campaigns"]] == ["Glorantha", "Sartar"]


def test_an_abandoned_request_body_prints_nothing_and_serve_keeps_answering(run_sqlite, tmp_path):
    """`serve` whose stderr is a pipe nobody reads: bodies abandoned mid-stream, many of them, print nothing
    (a pipe that fills would stop it for good) and every later request is answered."""
    import socket
    import subprocess
    import sys
    import urllib.request

    run_sqlite.json("campaign", "new", "Sartar", "--system", "potestas")
    server = subprocess.Popen(
        [sys.executable, "-m", "chronicle.cli", "--db", run_sqlite.db, "serve", "--writes", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    try:
        assert server.stdout is not None
        address = server.stdout.readline().split(" at ")[1].split()[0].rstrip("/")
        host, port = address.removeprefix("http://").split(":")
        for _ in range(80):
            with socket.create_connection((host, int(port)), timeout=10) as connection:
                connection.sendall(
                    b"POST /api/commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    b'Content-Length: 60000\r\n\r\n{"document": '
                )
        with urllib.request.urlopen(address + "/", timeout=20) as answer:
            assert answer.status == 200
    finally:
        server.terminate()
        _, err = server.communicate(timeout=20)
    assert "Traceback" not in err and "ClientDisconnect" not in err, err[:2000]
