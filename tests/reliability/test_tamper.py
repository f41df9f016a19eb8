"""Tamper evidence: every stored event is hashed and chained to its aggregate's previous event, so
`verify` names the position of an edit made with plain SQL, on SQLite and on PostgreSQL.

What is and is not detected (README "Guarantees"): an edited event; an edit that also recomputes
the edited event's own hash (the next event's link breaks); a deleted event in the middle of an
aggregate (the chain breaks); a deleted newest event while the index still lists it. Not detected
by the log alone: deleting the newest events of an aggregate together with their index rows, or
rewriting a whole chain from the edited event to its end (compare against an exported copy).
"""

from __future__ import annotations

import hashlib
import json

import orjson

from chronicle.ledger.application.views.told import EDITED

from .rows import delete, edit


def story(run) -> dict[str, int]:
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    rolls = [run.json("roll", "2d6", "--for", "Bruno", "--reason", f"round {i}")["event"] for i in range(3)]
    positions = {e["id"]: e["position"] for e in run.json("log")["events"]}
    return {f"roll{i}": positions[ident] for i, ident in enumerate(rolls)}


def problems(run) -> list[dict]:
    result = run("--json", "verify")
    report = json.loads(result.stdout)
    assert result.exit_code == (0 if report["ok"] else 1)
    return report["problems"]


def test_an_untouched_log_verifies(run):
    story(run)
    assert problems(run) == []


def test_an_edited_event_fails_verify_at_its_position(run):
    at = story(run)
    edit(run.db, at["roll1"], lambda state: state.replace(b"round 1", b"round 9"))
    found = problems(run)
    assert found[0]["position"] == at["roll1"] and "does not match its hash" in found[0]["problem"]


def test_an_edit_with_a_recomputed_hash_breaks_the_next_link(run):
    at = story(run)

    def forge(state: bytes) -> bytes:
        from chronicle.domain.rolls import DiceRolled

        data = orjson.loads(state)
        data["reason"] = "forged"
        probe = DiceRolled(
            originator_id="00000000-0000-0000-0000-000000000000",
            originator_version=1,
            **{k: v for k, v in data.items() if k != "hash"},
        )
        body = probe.model_dump(mode="json", exclude={"hash"})
        return orjson.dumps({**data, "hash": _hash(run, at["roll1"], body)})

    edit(run.db, at["roll1"], forge)
    found = problems(run)
    # the forgery itself hashes right, but it no longer tells what `log` kept of it when it was recorded,
    # nor is it the event the campaign's Merkle tree holds there...
    assert [p["position"] for p in found] == [at["roll1"], at["roll1"], at["roll2"]]
    assert found[0]["problem"] == EDITED and "Merkle tree" in found[1]["problem"]
    assert "chain broken" in found[2]["problem"]  # ...and the next event still links to the original


def _hash(run, position: int, body: dict) -> str:
    """The forger's recomputation of the content hash, with the edited event's real id and version."""
    log = {e["position"]: e for e in run.json("log")["events"]}
    body["originator_version"] = log[position]["version"]
    body["originator_id"] = _originator(run, position)
    payload = orjson.dumps(["chronicle.domain.rolls:DiceRolled", body], option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(payload).hexdigest()


def _originator(run, position: int) -> str:
    from chronicle.ledger.store.chronicle import open_ledger

    app = open_ledger(run.db)
    try:
        return str(app.recorder.select_notifications(start=position, limit=1)[0].originator_id)
    finally:
        app.close()


def test_a_deleted_event_in_the_middle_breaks_the_chain(run):
    at = story(run)
    delete(run.db, at["roll1"])
    found = problems(run)
    assert at["roll2"] in [p["position"] for p in found]


def test_a_deleted_newest_event_is_reported_while_the_index_lists_it(run):
    at = story(run)
    delete(run.db, at["roll2"])
    found = problems(run)
    gone = [p for p in found if p["position"] == at["roll2"]]
    assert [p["problem"] for p in gone] == [
        "indexed but missing from the log (deleted after it was recorded)",
        "the campaign's Merkle tree recorded an event here that the log no longer has: the newest events were removed",
    ]
    # the character's row, which the roll's command kept, still counts it: reported too, never instead
    assert all("characters read model differs" in p["problem"] for p in found if p not in gone)


def test_verify_side_by_side_reports_what_one_process_reports(run):
    """Workers each check a share of the aggregates: the same problems, in log order, and the same
    count, for edits, deletions and an amendment re-derived from its character's history."""
    at = story(run)
    for name in ("Ann", "Cid", "Dora", "Eve"):
        run("character", "add", name, "--stat", "hp=20")
        run("injure", name, "--damage", "4", "--mode", "sap", "--knockout-roll", "90")
        run("rest", name, "--hours", "8")
    run("amend", f"#{at['roll0']}", "--void", "--reason", "rolled by mistake")
    log = run.json("log")["events"]
    edit(run.db, at["roll1"], lambda state: state.replace(b"round 1", b"round 9"))
    delete(run.db, at["roll2"])  # Bruno's amendment, after it, then no longer links
    reports = {workers: run("--json", "verify", "--workers", workers) for workers in ("1", "2", "3")}
    assert {(r.exit_code, r.stdout) for r in reports.values()} == {(1, reports["1"].stdout)}
    found = json.loads(reports["1"].stdout)
    named = [at["roll1"], at["roll2"], at["roll2"], log[-1]["position"]]  # the deleted one by the Merkle tree too
    assert [p["position"] for p in found["problems"]] == named
    assert found["events"] == len(log) - 1  # the rows the events table still holds: one was deleted
