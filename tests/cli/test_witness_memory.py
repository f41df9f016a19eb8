"""Each chronicle remembers the last head of each campaign's log it saw: a log rewritten behind its back
(hash chains recomputed) takes no more writes from it (exit 1, nothing written), and a read warns."""

from __future__ import annotations

import json

import pytest
from reliability.edges import stored
from reliability.forge import rechain

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
