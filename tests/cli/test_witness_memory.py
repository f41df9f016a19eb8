"""Each chronicle remembers the last head of each campaign's log it saw: a log rewritten behind its back
(hash chains recomputed) takes no more writes from it (exit 1, nothing written), and a read warns."""

from __future__ import annotations

import base64
import json
import shutil
import uuid
from pathlib import Path

import pytest
from reliability.edges import stored
from reliability.forge import rechain

from chronicle.ledger.trust import memory

WRITES = {  # a command, and a batch (one transaction of many commands)
    "a command": (("--json", "roll", "d6"), None),
    "a batch": (("--json", "batch", "-"), "roll d20 --for Bruno\nroll d6 --for Bruno\n"),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=list(WRITES))
def test_a_rewritten_log_refuses_the_next_write_and_a_read_warns(run, write):
    args, lines = write
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    run("roll", "d20", "--for", "Bruno")
    run("roll", "d20", "--for", "Bruno")
    position = run.json("log")["events"][2]["position"]

    def forge(state):
        state["by"] = "mallory"

    rechain(run.db, position, forge)
    before = stored(run.db)
    refused = run(*args, input=lines)
    assert refused.exit_code == 1
    message = json.loads(refused.stderr)["error"]["message"]
    assert message.startswith("the log no longer extends the checkpoint of 4 events this chronicle saw")
    assert stored(run.db) == before
    shown = run("campaign", "show")
    assert shown.exit_code == 0 and shown.stderr.startswith("Warning: the log no longer extends the checkpoint")


def test_appending_keeps_the_log_witnessed(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    for _ in range(3):
        assert run("roll", "d20", "--for", "Bruno").exit_code == 0
    shown = run("campaign", "show")
    assert shown.exit_code == 0 and shown.stderr == ""


# the memory's form -------------------------------------------------------------------------------------


def older_form(home: Path) -> None:
    """The memory as an older chronicle kept it: every head in one `checkpoints.json`, by its key."""
    entries = [json.loads(path.read_text()) for path in (home / "checkpoints").glob("*.json")]
    kept = {entry.pop("key"): entry for entry in entries}
    (home / "checkpoints.json").write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
    shutil.rmtree(home / "checkpoints")


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "chronicle-home"
    monkeypatch.setenv("CHRONICLE_HOME", str(folder))
    return folder


def test_a_memory_in_the_older_form_still_refuses_a_write_over_a_rewritten_log(run, home):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    run("roll", "d20", "--for", "Bruno")
    run("roll", "d20", "--for", "Bruno")
    older_form(home)
    position = run.json("log")["events"][2]["position"]

    def forge(state):
        state["by"] = "mallory"

    rechain(run.db, position, forge)
    before = stored(run.db)
    refused = run("--json", "roll", "d6")
    assert refused.exit_code == 1 and stored(run.db) == before
    assert json.loads(refused.stderr)["error"]["message"].startswith(
        "the log no longer extends the checkpoint of 4 events this chronicle saw"
    )


def test_a_write_after_the_older_form_notes_its_head_in_a_file_of_its_own(run, home):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    older_form(home)
    older = (home / "checkpoints.json").read_text()
    assert run("roll", "d20", "--for", "Bruno").exit_code == 0
    (entry,) = (home / "checkpoints").glob("*.json")
    assert json.loads(entry.read_text())["size"] == 3
    assert (home / "checkpoints.json").read_text() == older  # left as it was: its other entries still count
    shown = run("campaign", "show")
    assert shown.exit_code == 0 and shown.stderr == ""


def remember_others(home: Path, count: int) -> None:
    """Heads of COUNT other campaigns remembered, half in the older form's file and half in files of their own."""
    older = {
        f"{uuid.uuid4()} /elsewhere.db": {"size": 7, "root": base64.b64encode(bytes(32)).decode()}
        for _ in range(count // 2)
    }
    (home / "checkpoints.json").write_text(json.dumps(older, indent=1, sort_keys=True) + "\n")
    for _ in range(count - count // 2):
        key = f"{uuid.uuid4()} /elsewhere.db"
        memory.rewrite(memory.entry(home / "checkpoints", key), {"key": key, "size": 7, "root": "AA=="})


def bytes_of_a_write(run, monkeypatch) -> tuple[int, int]:
    """The bytes of memory one roll reads and writes."""
    read, written = [], []
    real_read, real_rewrite = memory.read, memory.rewrite

    def counted_read(path):
        found = real_read(path)
        read.append(path.stat().st_size if path.exists() else 0)
        return found

    def counted_rewrite(path, kept):
        real_rewrite(path, kept)
        written.append(path.stat().st_size)

    with monkeypatch.context() as patched:
        patched.setattr(memory, "read", counted_read)
        patched.setattr(memory, "rewrite", counted_rewrite)
        assert run("roll", "d20", "--for", "Bruno").exit_code == 0
    return sum(read), sum(written)


def test_a_writes_memory_reads_and_writes_the_same_bytes_with_10_or_1000_campaigns_remembered(run, home, monkeypatch):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    home.mkdir(exist_ok=True)
    measured = {}
    for count in (10, 1000):
        remember_others(home, count)
        run("roll", "d6", "--for", "Bruno")  # (the older form, were it the campaign's, is read here once)
        measured[count] = bytes_of_a_write(run, monkeypatch)
    assert measured[10] == measured[1000] and 0 < measured[1000][1] < 300
