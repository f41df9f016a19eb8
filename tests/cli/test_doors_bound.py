"""Every door holds the same bounds: `chronicle mcp` answers every line it is sent with JSON-RPC (a line that is
not JSON, or no message object, or past 1 MiB, as batch and the shell refuse such a line), its `log` tool takes
no `tail` beyond 64 bits, and the Status cap `status award` holds is held by `amend --set` and `oath fulfil`
too; numbers are written in the digits 0-9; `mcp` is refused inside the shell. The current campaign is each
user's own choice: `campaign use` records nothing in any log, and a player's `campaign new` moves no one else's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chronicle.ledger.trust.identity import load_or_create

HERE = Path(__file__).resolve().parent.parent


def mcp(db: str, home: Path, lines: list[str]) -> list[dict]:
    """`chronicle mcp` fed LINES (after the handshake); its answers, one JSON object each."""
    handshake = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]
    server = subprocess.Popen(
        [sys.executable, "-m", "chronicle.cli", "--db", db, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=HERE,
        env={"CHRONICLE_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    assert server.stdin is not None and server.stdout is not None
    answers = []
    try:
        for line in [*handshake, *lines]:
            server.stdin.write(line + "\n")
            server.stdin.flush()
            if '"method":"notifications/' in line.replace(" ", ""):
                continue
            answers.append(json.loads(server.stdout.readline()))
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    return answers[1:]


def call(ident: int, tool: str, arguments: dict) -> str:
    return json.dumps(
        {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    )


@pytest.fixture
def greyhawk(run, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("CHRONICLE_HOME", str(home))
    run.json("campaign", "new", "Greyhawk", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13")
    return home


def test_mcp_answers_every_line_with_json_rpc(run, greyhawk):
    answers = mcp(
        run.db,
        greyhawk,
        [
            "{not json",
            "[1, 2]",
            "42",
            call(1, "log", {"tail": 2**63}),
            call(2, "note", {"text": "x" * 1_100_000}),
            call(3, "note", {"text": "still answering"}),
        ],
    )
    assert [a.get("error", {}).get("code") for a in answers[:3]] == [-32700, -32600, -32600]
    assert all(a["id"] is None for a in answers[:3])
    tail, huge, fine = answers[3:]
    assert (
        tail["id"] == 1
        and tail["result"]["isError"]
        and tail["result"]["structuredContent"]["error"]["code"] == "bad_input"
    )
    assert huge["error"]["code"] == -32600  # past 1 MiB, as a batch's or the shell's line
    assert fine["id"] == 3 and not fine["result"]["isError"]
    notes = [e for e in run.json("log")["events"] if e["type"] == "NoteTaken"]
    assert [n["data"]["text"] for n in notes] == ["still answering"]


def test_the_status_cap_holds_through_amend_and_oath_fulfil(run, greyhawk):
    run.json("oath", "swear", "Vasana", "to guard the ford")
    before = len(run.json("log")["events"])
    fulfil = run("oath", "fulfil", "Vasana", "to guard the ford", "--status", str(10**12))
    assert fulfil.exit_code == 2 and "at most 1,000,000" in fulfil.stderr
    run.json("status", "award", "Vasana", "--amount", "100", "--reason", "a hard fight")
    award = run.json("log", "--tail", "1")["events"][-1]["position"]
    amended = run("amend", f"#{award}", "--set", f"amount={10**15}", "--reason", "typo")
    assert amended.exit_code == 2 and "beyond 1,000,000" in amended.stderr
    assert len(run.json("log")["events"]) == before + 1


def test_numbers_are_written_in_the_digits_0_to_9(run, greyhawk):
    done = run("log", "--tail", "١٢")
    assert done.exit_code == 2 and "digits 0-9" in done.stderr


def test_mcp_inside_the_shell_is_refused_in_one_line(run, greyhawk):
    done = run("shell", input="mcp\n")
    assert "mcp cannot run inside the shell" in done.stderr


def test_campaign_use_records_nothing_and_is_each_users_own(run, greyhawk, tmp_path, monkeypatch):
    gm_home = greyhawk
    run.json("campaign", "new", "Sartar", "--system", "potestas")  # the gm's current campaign now
    ann_home = tmp_path / "ann"
    monkeypatch.setenv("CHRONICLE_HOME", str(ann_home))
    ann = load_or_create(ann_home).public_key_text
    monkeypatch.setenv("CHRONICLE_HOME", str(gm_home))
    run.json("--campaign", "Greyhawk", "participant", "add", "Ann", "--role", "gm", "--key", ann)
    before = len(run.json("--campaign", "Greyhawk", "log")["events"]) + len(
        run.json("--campaign", "Sartar", "log")["events"]
    )
    assert run.json("campaign", "use", "Greyhawk")["campaign"] == "Greyhawk"
    after = len(run.json("--campaign", "Greyhawk", "log")["events"]) + len(
        run.json("--campaign", "Sartar", "log")["events"]
    )
    assert after == before  # nothing recorded in any log
    assert run.json("campaign", "show")["name"] == "Greyhawk"
    # Ann (a gm of Greyhawk only) starts a campaign of her own: hers is current for her, not for the gm
    monkeypatch.setenv("CHRONICLE_HOME", str(ann_home))
    run.json("campaign", "new", "Annwn", "--system", "potestas", by="Ann")
    assert run.json("campaign", "show", by="Ann")["name"] == "Annwn"
    assert run.json("campaign", "use", "Greyhawk", by="Ann")["campaign"] == "Greyhawk"  # not Annwn's participants
    monkeypatch.setenv("CHRONICLE_HOME", str(gm_home))
    assert run.json("campaign", "show")["name"] == "Greyhawk"
    current = [c["name"] for c in run.json("campaign", "list")["campaigns"] if c["current"]]
    assert current == ["Greyhawk"]
