"""A campaign's Merkle tree and a witness's audit of it, for the table view's proof pages
(docs/design.md, Packages; docs/guarantees.md)."""

from __future__ import annotations

from ..trust.tree import DamagedTree, Head, extend, rebuild, stored_tree
from ..trust.witness import audit, seen_key

__all__ = ["DamagedTree", "Head", "audit", "extend", "rebuild", "seen_key", "stored_tree"]
