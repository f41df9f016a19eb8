"""A laptop dies mid-command: `kill -9` of a real `batch` or `import` process, while it reads its
input and while it writes, leaves the log exactly as it was, and `verify` still passes."""

from __future__ import annotations

import time

import pytest
from conftest import Run

from .processes import children, ended, kill_when, reading, start, stored_log, writing


@pytest.fixture
def table(run):
    """A campaign with a character and a few events: the state every crash must leave intact."""
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    run("roll", "2d6", "--for", "Bruno")
    return run


def lines(tmp_path, count: int, name: str = "Bruno") -> str:
    path = tmp_path / f"batch-{name}-{count}.txt"
    path.write_text("# a long evening at the table\n" + f"roll d20 --for {name} --reason 'attack'\n" * count)
    return str(path)


def assert_untouched(run, log_before, export_before):
    assert stored_log(run.db) == log_before
    assert run("export").stdout_bytes == export_before
    assert run.json("verify")["ok"] is True
    assert run.json("roll", "d20", "--for", "Bruno")["version"] == 3  # the ledger still takes writes


def test_kill_9_while_a_20k_line_batch_reads_its_lines_writes_nothing(table, tmp_path):
    log_before, export_before = stored_log(table.db), table("export").stdout_bytes
    batch = start(table.db, "batch", lines(tmp_path, 20_000))

    def a_while_later() -> bool:
        time.sleep(1.5)
        return True

    assert kill_when(batch, a_while_later), "the batch ended before it was killed"
    assert_untouched(table, log_before, export_before)


def test_kill_9_while_a_batch_commits_writes_nothing(table, tmp_path):
    log_before, export_before = stored_log(table.db), table("export").stdout_bytes
    batch = start(table.db, "batch", lines(tmp_path, 5_000))
    assert kill_when(batch, writing(table.db)), "the batch ended before it was seen writing"
    assert_untouched(table, log_before, export_before)


def test_kill_9_during_an_import_writes_nothing_and_the_import_can_be_run_again(table, tmp_path):
    source = Run(str(tmp_path / "source.db"))
    source("campaign", "new", "Glorantha", "--system", "adnd2e")
    source("character", "add", "Vasana", "--stat", "hp=20")
    source("batch", lines(tmp_path, 10_000, "Vasana"))  # a write larger than SQLite's page cache: seen before commit
    exported = tmp_path / "glorantha.jsonl"
    exported.write_bytes(source("--campaign", "Glorantha", "export").stdout_bytes)

    log_before, export_before = stored_log(table.db), table("--campaign", "Greyhawk", "export").stdout_bytes
    for moment in ("reading", "writing"):
        write_probe = writing(table.db) if moment == "writing" else None  # made before the import starts
        importing = start(table.db, "import", str(exported))
        probe = write_probe or reading(importing, str(exported))
        workers: list[str] = []

        def seen(importing=importing, probe=probe, workers=workers) -> bool:  # once the workers run (opening
            workers[:] = children(importing.pid) or workers  # the ledger writes too, briefly)
            return bool(workers) and probe()

        assert kill_when(importing, seen), "the import ended before it was killed"
        assert ended(workers), "the import's workers outlived it"
        assert stored_log(table.db) == log_before
        assert table("--campaign", "Greyhawk", "export").stdout_bytes == export_before
        shown = table("--campaign", "Glorantha", "campaign", "show")
        assert shown.exit_code == 2, shown.output

    assert table.json("import", str(exported))["events"] == 10_002
    assert table.json("--campaign", "Glorantha", "verify")["ok"] is True
    assert table("--campaign", "Greyhawk", "export").stdout_bytes == export_before
