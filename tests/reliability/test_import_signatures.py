"""import carries participants, keys and signatures, and re-checks them: a file whose signature or
participants do not hold is refused and nothing is imported; on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from chronicle.ledger.trust.identity import load_or_create

from .edges import stored


def signed_export(run, tmp_path, monkeypatch) -> list[dict]:
    ann = load_or_create(tmp_path / "ann").public_key_text
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bob", "--stat", "hp=20")
    run("participant", "add", "Ann", "--role", "player", "--plays", "Bob", "--key", ann)
    monkeypatch.setenv("CHRONICLE_HOME", str(tmp_path / "ann"))
    assert run("roll", "d20", "--for", "Bob", by="Ann").exit_code == 0
    monkeypatch.delenv("CHRONICLE_HOME")
    return [json.loads(line) for line in run("export").stdout.splitlines()]


def test_an_export_carries_participants_and_signatures_and_imports(run, tmp_path, monkeypatch):
    from conftest import Run

    lines = signed_export(run, tmp_path, monkeypatch)
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    copy = Run(str(tmp_path / "copy.db"))
    assert copy("import", str(path)).exit_code == 0
    report = copy.json("verify")
    assert report["ok"] and report["signed"] == report["events"] == 4
    assert [p["name"] for p in copy.json("participant", "list")["participants"]] == ["gm", "Ann"]
    assert copy.json("log", "--tail", "1")["events"][-1]["by"] == "Ann"


def test_an_export_whose_signature_was_forged_is_refused(run, tmp_path, monkeypatch):
    from conftest import Run

    from reliability.forge import reseal

    lines = signed_export(run, tmp_path, monkeypatch)
    roll = lines[3]
    roll["state"]["signed"]["document"]["notation"] = "d6"  # what Ann asked for, rewritten
    reseal(lines, roll)
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    copy = Run(str(tmp_path / "copy.db"))
    refused = copy("--json", "import", str(path))
    assert refused.exit_code == 1
    message = json.loads(refused.stderr)["error"]["message"]
    assert "line 4" in message and "does not verify" in message
    assert stored(copy.db) == 0
