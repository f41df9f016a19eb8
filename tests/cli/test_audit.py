"""Audit: amend, replay, verify, export/import and batch, on both databases where storage matters."""

import hashlib
import json
import sqlite3
from pathlib import Path

from chronicle.domain.adnd2e import Injured, InjureInputs, parse_sheet
from chronicle.ledger.application.session import Session
from chronicle.ledger.store.chronicle import open_ledger


def story(db: str) -> None:
    """Bob (20 hp) takes 8 lethal, a sap of 10 (knockout roll 90) and 12 lethal: dead at -10."""
    app = open_ledger(db)
    session = Session(app, None, "gm", 5)
    session.start_campaign("Greyhawk", "adnd2e")
    bob = session.add_character("Bob", parse_sheet({"hp": "20"}))
    session.resolve(bob, Injured, InjureInputs(damage=8, mode="lethal"))
    session.resolve(bob, Injured, InjureInputs(damage=10, mode="sap"), table={"knockout": [90]})
    session.resolve(bob, Injured, InjureInputs(damage=12, mode="lethal"))
    session.save()
    app.close()  # else its connection, open until collected, decides which later close moves the WAL into the file


def positions(run, kind="Injured"):
    return [e["position"] for e in run.json("log")["events"] if e["type"] == kind]


def test_a_voided_event_no_longer_counts_but_stays_in_the_log(run):
    story(run.db)
    first = positions(run)[0]
    result = run.json("amend", f"#{first}", "--void", "--reason", "wrong target")
    assert result["void"] is True
    shown = run.json("character", "show", "Bob")
    assert shown["condition"]["real_damage"] == 14 and shown["condition"]["states"] == ["unconscious"]
    events = run.json("log")["events"]
    original = next(e for e in events if e["position"] == first)
    assert original["amended"][0]["void"] is True and original["amended"][0]["by"] == "gm"
    assert run.json("verify")["ok"] is True


def test_a_superseded_input_re_derives_every_later_outcome(run):
    story(run.db)
    first = positions(run)[0]
    result = run.json("amend", f"#{first}", "--set", "damage=2", "--reason", "misheard")
    changes = {(c["version"], c["field"]): (c["recorded"], c["replayed"]) for c in result["changes"]}
    assert changes[(2, "real")] == (8, 2)
    assert changes[(4, "dead")] == (True, False) and changes[(4, "unconscious")] == (False, True)
    assert run.json("character", "show", "Bob")["condition"]["real_damage"] == 16
    assert run.json("verify")["ok"] is True


def test_amending_an_amendment_undoes_it(run_sqlite):
    run = run_sqlite
    story(run.db)
    run("amend", f"#{positions(run)[0]}", "--void", "--reason", "wrong target")
    amendment = positions(run, "Amended")[0]
    run.json("amend", f"#{amendment}", "--void", "--reason", "it was right after all")
    assert run.json("character", "show", "Bob")["condition"]["real_damage"] == 22
    assert run.json("verify")["ok"] is True


def test_amending_a_missing_ref_is_bad_input(run_sqlite):
    story(run_sqlite.db)
    assert run_sqlite("amend", "#999", "--void", "--reason", "x").exit_code == 2
    assert run_sqlite("amend", "00000000-0000-0000-0000-000000000000", "--void", "--reason", "x").exit_code == 2


def _digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_replay_changes_exactly_what_the_ruling_touches_and_writes_nothing(run_sqlite):
    run = run_sqlite
    story(run.db)
    run.json("log")  # the index is caught up before the digest is taken
    before = _digest(run.db)
    result = run.json("replay", "--ruling", "death_at=-10")
    assert {(c["field"], c["recorded"], c["replayed"]) for c in result["changed"]} == {
        ("dead", True, False),
        ("unconscious", False, True),
    }
    assert result["final"]["Bob"]["states"] == ["unconscious"]
    assert _digest(run.db) == before
    assert run.json("character", "show", "Bob")["condition"]["states"] == ["dead"]


def test_replay_with_an_unknown_ruling_is_bad_input(run_sqlite):
    story(run_sqlite.db)
    assert run_sqlite("replay", "--ruling", "nonsense=1").exit_code == 2


def test_editing_a_stored_payload_makes_verify_fail_and_name_the_position(run_sqlite):
    run = run_sqlite
    story(run.db)
    target = positions(run)[1]
    with sqlite3.connect(run.db) as connection:
        state = connection.execute("SELECT state FROM stored_events WHERE rowid = ?", (target,)).fetchone()[0]
        connection.execute(
            "UPDATE stored_events SET state = ? WHERE rowid = ?",
            (state.replace(b'"damage":10', b'"damage":11', 1), target),
        )
    result = run("--json", "verify")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["problems"][0]["position"] == target


def test_export_import_export_is_identical(run, tmp_path):
    story(run.db)
    exported = run("export").stdout
    assert len(exported.splitlines()) == 6  # five events and the closing line (their count and digest)
    copy = str(tmp_path / "copy.db")
    (tmp_path / "log.jsonl").write_text(exported)
    from click.testing import CliRunner

    from chronicle.cli.main import chronicle

    imported = CliRunner().invoke(chronicle, ["--db", copy, "--json", "import", str(tmp_path / "log.jsonl")])
    assert json.loads(imported.stdout) == {"events": 5}
    again = CliRunner().invoke(chronicle, ["--db", copy, "export"]).stdout
    assert again == exported


def test_import_refuses_a_file_that_does_not_verify_and_writes_nothing(run_sqlite, tmp_path):
    story(run_sqlite.db)
    lines = run_sqlite("export").stdout.replace('"damage":12', '"damage":2')
    (tmp_path / "bad.jsonl").write_text(lines)
    from click.testing import CliRunner

    from chronicle.cli.main import chronicle

    copy = str(tmp_path / "copy.db")
    refused = CliRunner().invoke(chronicle, ["--db", copy, "import", str(tmp_path / "bad.jsonl")])
    assert refused.exit_code == 1
    assert open_ledger(copy).recorder.max_notification_id() in (None, 0)


def test_a_batch_with_a_bad_line_500_leaves_the_log_as_it_was(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bob", "--stat", "hp=20")
    before = run("export").stdout
    lines = ["# a long evening", *["roll d20 --for Bob" for _ in range(499)], "roll 2d --for Bob"]
    result = run("--json", "batch", "-", input="\n".join(lines) + "\n")
    assert result.exit_code == 2
    assert "line 501" in json.loads(result.stderr)["error"]["message"]
    assert run("export").stdout == before


def test_a_batch_runs_every_line_in_one_transaction(run):
    script = "campaign new Greyhawk --system adnd2e\ncharacter add Bob --stat hp=20\n\nroll d20 --for Bob\n"
    assert run.json("batch", "-", input=script) == {"lines": 3, "events": 3}
    assert len(run.json("log")["events"]) == 3


def test_replay_fork_writes_the_alternative_timeline_pointing_at_the_originals(run_sqlite):
    run = run_sqlite
    story(run.db)
    result = run.json("replay", "--ruling", "death_at=-10", "--fork", "Greyhawk (what if)")
    assert result["fork"]["campaign"] == "Greyhawk (what if)"
    forked = run.json("--campaign", "Greyhawk (what if)", "character", "show", "Bob")
    assert forked["condition"]["states"] == ["unconscious"]
    assert run.json("--campaign", "Greyhawk", "character", "show", "Bob")["condition"]["states"] == ["dead"]
    originals = {e["id"] for e in run.json("--campaign", "Greyhawk", "log", "Bob")["events"]}
    twins = run.json("--campaign", "Greyhawk (what if)", "log", "Bob")["events"]
    assert all(e["data"]["origin"] in originals for e in twins)
    assert run.json("--campaign", "Greyhawk (what if)", "verify")["ok"] is True


def test_a_batch_logs_its_events_in_the_order_of_its_lines(run_sqlite):
    script = (
        "campaign new Greyhawk --system adnd2e\ncharacter add Bob --stat hp=20\nroll d6\n"
        "character add Ann --stat hp=9\nroll d20 --for Bob\n"
    )
    run_sqlite.json("batch", "-", input=script)
    events = run_sqlite.json("log")["events"]
    assert [(e["type"], e["character"]) for e in events] == [
        ("CampaignStarted", None),
        ("CharacterRegistered", "Bob"),
        ("DiceRolled", None),
        ("CharacterRegistered", "Ann"),
        ("DiceRolled", "Bob"),
    ]


def test_a_ruling_change_applies_from_its_position_and_replay_and_verify_use_the_ruling_in_force(run_sqlite):
    """death_at=-10 from the third injury on: the first two keep the ruling they were decided under."""
    run = run_sqlite
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bob", "--stat", "hp=10")
    run.json("injure", "Bob", "--damage", "4", "--mode", "lethal")
    run.json("campaign", "rule", "death_at=-10", "--reason", "the table prefers the optional rule")
    assert run.json("injure", "Bob", "--damage", "8", "--mode", "lethal")["condition"]["states"] == ["unconscious"]
    recorded = [e["data"]["rulings"]["death_at"] for e in run.json("log", "Bob")["events"] if e["type"] == "Injured"]
    assert recorded == [0, -10]
    assert run.json("verify")["ok"] is True
    back = run.json("replay", "--ruling", "death_at=0")
    assert [(c["field"], c["recorded"], c["replayed"]) for c in back["changed"] if c["field"] == "dead"] == [
        ("dead", False, True)
    ]
