"""`verify` reads every row of the events table itself, so forged rows, rows
the index lacks and edited read models are reported; and a digest of every aggregate's head, noted
once, holds the log to what it was, even against a rewrite the chains alone cannot show."""

from __future__ import annotations

import json

from .edges import refused, sql, stored, story
from .rows import delete, edit


def problems(run, *args: str) -> list[dict]:
    result = run("--json", "verify", *args)
    report = json.loads(result.stdout)
    assert result.exit_code == (0 if report["ok"] else 1)
    return report["problems"]


def positions(run) -> dict[str, int]:
    return {e["data"].get("reason") or e["type"]: e["position"] for e in run.json("log")["events"]}


def test_an_event_the_index_lacks_is_reported(run):
    story(run)
    at = positions(run)["first round"]
    sql(run.db, "DELETE FROM chronicle_log WHERE position = ?", (at,))
    found = problems(run)
    assert [p["position"] for p in found] == [at] and "not in the index" in found[0]["problem"]


def test_a_forged_row_with_a_bogus_hash_is_reported_though_the_index_never_saw_it(run):
    story(run)
    at = positions(run)["first round"]
    edit(run.db, at, lambda state: state.replace(b'"hash":"', b'"hash":"bogus'))
    found = problems(run)
    assert found[0]["position"] == at and "does not match its hash" in found[0]["problem"]


def test_an_edited_characters_read_model_is_reported(run):
    story(run)
    run.json("character", "show", "Bruno")  # the read model has caught up
    sql(run.db, "UPDATE chronicle_character_rows SET view = replace(view, '\"hp\":30', '\"hp\":99')")
    found = problems(run)
    assert any("read model differs" in p["problem"] and "Bruno" in p["problem"] for p in found)


def test_a_digest_noted_then_proves_the_log_still_extends_it(run):
    story(run)
    noted = run.json("campaign", "show")["digest"]
    run("roll", "d20", "--for", "Bruno", "--reason", "later")
    assert problems(run, "--digest", noted) == []
    assert run.json("campaign", "show")["digest"] != noted


def test_dropping_the_newest_events_with_their_index_rows_is_caught_by_the_digest(run):
    """The chains alone cannot show it (the rest still links): the digest noted before can."""
    story(run)
    kept = sql(run.db, "SELECT * FROM chronicle_character_rows WHERE name = 'Bruno'")  # Bruno's row before the roll
    run("roll", "d20", "--for", "Bruno", "--reason", "later")
    noted = run.json("campaign", "show")["digest"]
    at = positions(run)["later"]
    delete(run.db, at)
    sql(run.db, "DELETE FROM chronicle_log WHERE position = ?", (at,))
    sql(run.db, "DELETE FROM chronicle_character_rows WHERE name = 'Bruno'")  # and his row as it was before
    sql(run.db, f"INSERT INTO chronicle_character_rows VALUES ({', '.join('?' * len(kept[0]))})", kept[0])
    # the campaign's stored Merkle tree still holds the removed event...
    found = problems(run)
    assert [p["position"] for p in found] == [at] and "the newest events were removed" in found[0]["problem"]
    sql(run.db, "DELETE FROM chronicle_tree_nodes")  # ...unless it goes too: then the log alone cannot tell
    sql(run.db, "DELETE FROM chronicle_trees")
    assert problems(run) == []
    found = problems(run, "--digest", noted)
    assert found and "events were removed" in found[0]["problem"]


def test_a_rewritten_event_is_caught_against_an_earlier_export(run, tmp_path):
    story(run)
    earlier = tmp_path / "earlier.jsonl"
    assert run("export", "-o", str(earlier)).exit_code == 0
    at = positions(run)["first round"]
    edit(run.db, at, lambda state: state.replace(b"first round", b"other round"))
    assert any("differs from the export" in p["problem"] for p in problems(run, "--against", str(earlier)))


def test_a_malformed_digest_is_bad_input(run):
    story(run)
    before = stored(run.db)
    refused(run("verify", "--digest", "not-a-digest"), 2, "--digest")
    assert stored(run.db) == before
