"""A batch is one transaction on both databases: every line joins it, and a line that
would commit on its own (`import`, `rebuild`) is refused; when any later line fails, nothing of the file
is written, however many lines came before it (on SQLite they were already inserted into the open
transaction, a flush every few hundred lines)."""

from __future__ import annotations

from chronicle.ledger.application import batch as batch_command


def events(run) -> int:
    return run.json("verify")["events"]


def prepared(run) -> int:
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    return events(run)


def test_a_failing_line_after_many_flushes_leaves_nothing_written(run, tmp_path, monkeypatch):
    monkeypatch.setattr(batch_command, "FLUSH", 7)  # several flushes into the open transaction before the failure
    before = prepared(run)
    lines = tmp_path / "lines.txt"
    lines.write_text(
        "character add Ilsa --stat hp=12\n"
        + "roll d20 --for Bruno --reason flushed\n" * 40
        + "injure Ilsa --damage 3 --mode lethal\n"
        + "roll d20 --for Nobody\n"
    )
    failed = run("batch", str(lines))
    assert failed.exit_code == 2 and "line 43" in failed.stderr
    assert events(run) == before
    assert [c["name"] for c in run.json("character", "list")["characters"]] == ["Bruno"]


def test_an_import_line_is_refused_and_nothing_of_the_file_is_written(run, tmp_path):
    before = prepared(run)
    export = tmp_path / "greyhawk.jsonl"
    assert run("export", "--output", str(export)).exit_code == 0
    lines = tmp_path / "lines.txt"
    lines.write_text(f"roll d20 --for Bruno\nimport {export}\nroll d20 --for Bruno\n")
    refused = run("batch", str(lines))
    assert refused.exit_code == 2
    assert refused.stderr.strip().splitlines() == [
        "Error: line 2: import cannot run inside a batch (it commits on its own): run it on its own"
    ]
    assert events(run) == before


def test_a_rebuild_line_is_refused_with_one_clear_line(run, tmp_path):
    before = prepared(run)
    lines = tmp_path / "lines.txt"
    lines.write_text("roll d20 --for Bruno\nrebuild\n")
    refused = run("batch", str(lines))
    assert refused.exit_code == 2
    assert len(refused.stderr.strip().splitlines()) == 1 and "rebuild cannot run inside a batch" in refused.stderr
    assert events(run) == before


def test_a_whole_batch_is_written_and_the_index_follows_it(run, tmp_path, monkeypatch):
    monkeypatch.setattr(batch_command, "FLUSH", 5)
    before = prepared(run)
    lines = tmp_path / "lines.txt"
    lines.write_text("character add Ilsa --stat hp=12\n" + "roll d20 --for Ilsa\n" * 12)
    done = run.json("batch", str(lines))
    assert done == {"lines": 13, "events": 13}
    assert events(run) == before + 13
    assert len(run.json("log", "Ilsa")["events"]) == 13
