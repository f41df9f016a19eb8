"""A batch is a write like any other for the witness: refused (exit 1, nothing written) when the log no
longer extends the last checkpoint this chronicle saw, and, once committed, its campaign's stored tree holds
its events and their head is the one noted as seen, so the next write grows the tree by its own events
only. On SQLite and PostgreSQL."""

from __future__ import annotations

import json

from reliability.edges import stored
from reliability.forge import rechain

from chronicle.ledger import merkle
from chronicle.ledger.app import open_ledger
from chronicle.ledger.tree import campaign_leaves, stored_tree
from chronicle.ledger.witness import remembered


def _campaign(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    return run.json("campaign", "show")["id"]


def test_a_batch_on_a_rewritten_log_is_refused_and_writes_nothing(run):
    _campaign(run)
    run("roll", "d20", "--for", "Bruno")
    position = run.json("log")["events"][1]["position"]

    def forge(state):
        state["by"] = "mallory"

    rechain(run.db, position, forge)
    before = stored(run.db)
    refused = run("--json", "batch", "-", input="roll d20 --for Bruno\nroll d6 --for Bruno\n")
    assert refused.exit_code == 1
    message = json.loads(refused.stderr)["error"]["message"]
    assert message.startswith("the log no longer extends the checkpoint of 3 events this chronicle saw")
    assert stored(run.db) == before


def test_a_batch_grows_the_tree_and_notes_the_head_it_leaves(run):
    from uuid import UUID

    campaign = UUID(_campaign(run))
    lines = "".join(f"roll d{4 + i % 3 * 2} --for Bruno\n" for i in range(7))
    assert run("batch", "-", input=lines).exit_code == 0
    app = open_ledger(run.db)
    try:
        leaves = [leaf.hash for leaf in campaign_leaves(app, campaign)]
        head = stored_tree(app).head(campaign)
        assert head is not None and head.size == len(leaves) == 9
        assert remembered(campaign, where=run.db) == (9, merkle.root(leaves))
    finally:
        app.close()
    assert run("roll", "d20", "--for", "Bruno").exit_code == 0
    shown = run("campaign", "show")
    assert shown.exit_code == 0 and shown.stderr == ""
