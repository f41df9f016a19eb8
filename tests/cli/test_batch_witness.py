"""A batch is a write like any other for the witness (refused on a rewritten log: test_witness_memory.py):
once committed, its campaign's stored tree holds its events and their head is the one noted as seen, so
the next write grows the tree by its own events only. On SQLite and PostgreSQL."""

from __future__ import annotations

from trees import grown_to_the_log

from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.trust.witness import remembered


def _campaign(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    return run.json("campaign", "show")["id"]


def test_a_batch_grows_the_tree_and_notes_the_head_it_leaves(run):
    from uuid import UUID

    campaign = UUID(_campaign(run))
    lines = "".join(f"roll d{4 + i % 3 * 2} --for Bruno\n" for i in range(7))
    assert run("batch", "-", input=lines).exit_code == 0
    app = open_ledger(run.db)
    try:
        head, root = grown_to_the_log(app, campaign)
        assert head.size == 9
        assert remembered(campaign, where=run.db) == (9, root)
    finally:
        app.close()
    assert run("roll", "d20", "--for", "Bruno").exit_code == 0
    shown = run("campaign", "show")
    assert shown.exit_code == 0 and shown.stderr == ""
