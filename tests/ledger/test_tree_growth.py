"""A write grows its campaign's stored Merkle tree in its own transaction from what it knows: the hashes of
the events it saved, and the perfect subtrees it left the tree with last time (once that was committed);
the head it notes as seen has the tree's root. On SQLite and PostgreSQL."""

from __future__ import annotations

from uuid import uuid4

import pytest
from trees import grown_to_the_log

from chronicle.ledger.application.commands import potestas, table
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.trust import merkle
from chronicle.ledger.trust.tree import Leaf, stored_tree
from chronicle.ledger.trust.witness import remembered


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm", seed=3)
    opened.execute(table.CampaignNew(name=f"Growth {uuid4().hex[:8]}", system="potestas"))
    opened.execute(table.CharacterAdd(name="Brand", stat=["fort=30"]))
    yield opened
    opened.close()


def _nodes_read(ledger: Ledger, command: object) -> int:
    tree = stored_tree(ledger.app)
    before = tree.reads
    ledger.execute(command)  # type: ignore[arg-type]  # a rule command
    return tree.reads - before


def test_writes_grow_the_tree_to_the_log_and_note_its_root(ledger):
    for i in range(13):  # sizes that are and are not powers of two
        ledger.execute(potestas.Injure(name="Brand", damage=1 + i % 3, save_roll=10))
    app, campaign = ledger.app, ledger.read().campaign.id
    head, root = grown_to_the_log(app, campaign)
    assert head.size == 15
    assert remembered(campaign, where=ledger.target) == (head.size, root)


def test_a_write_in_process_reads_no_tree_node_to_grow_the_tree(ledger):
    """The witness's check before the write reads the root's nodes (one per perfect subtree) and the newest
    leaf; growing by the write's own events then reads none: the perfect subtrees are the ones the previous
    write left, kept once its transaction committed."""
    for _ in range(9):
        ledger.execute(potestas.Injure(name="Brand", damage=2, save_roll=10))
    head = stored_tree(ledger.app).head(ledger.read().campaign.id)
    assert head is not None and head.size == 11  # three perfect subtrees: 8, 2 and 1 leaves
    assert _nodes_read(ledger, potestas.Injure(name="Brand", damage=2, save_roll=10)) == 3 + 1


def test_a_grown_head_is_kept_only_when_told_committed_and_until_reset(db):
    from chronicle.ledger.store.chronicle import open_ledger

    app = open_ledger(db)
    try:
        tree = stored_tree(app)
        hashes = [merkle.leaf_hash(bytes([i])) for i in range(7)]
        head = tree.append(tree.open(uuid4()), (Leaf(i + 1, leaf) for i, leaf in enumerate(hashes[:5])))
        assert tree.settled(head._replace(size=4)) is None  # not the head it grew to: the nodes tell
        assert tree.settled(head) is None  # (told once only)
        head = tree.append(head, (Leaf(i + 1, leaf) for i, leaf in enumerate(hashes[5:], start=5)))
        assert tree.settled(head) == merkle.root(hashes) == tree.root(head.tree, head.size)
        reads = tree.reads
        head = tree.append(head, [Leaf(8, merkle.leaf_hash(b"eighth"))])
        assert tree.reads == reads  # grown from the kept subtrees
        assert tree.settled(head) == tree.root(head.tree, head.size)
        emptied = tree.reset(head)
        head = tree.append(emptied, [Leaf(9, merkle.leaf_hash(b"again"))])
        assert tree.root(head.tree, head.size) == merkle.root([merkle.leaf_hash(b"again")])
    finally:
        app.close()
