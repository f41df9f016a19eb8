"""A campaign's stored Merkle tree against its log: the tests of ledger/trust/tree.py's growth share this check."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from chronicle.ledger.trust import merkle
from chronicle.ledger.trust.tree import Head, campaign_leaves, stored_tree


def grown_to_the_log(app: Any, campaign: UUID) -> tuple[Head, bytes]:
    """The campaign's stored head and root, asserted to be those of the log's events as they stand."""
    leaves = [leaf.hash for leaf in campaign_leaves(app, campaign)]
    tree = stored_tree(app)
    head = tree.head(campaign)
    assert head is not None and head.size == len(leaves)
    root = tree.root(head.tree, head.size)
    assert root == merkle.root(leaves)
    return head, root
