"""Names of tables and triggers that the store asks after when it opens a ledger, though other packages make
them (the stored Merkle tree: ledger/trust/tree.py; the events table's tripwire: ledger/trust/tripwire.py)."""

TREE_NODES = "chronicle_tree_nodes"
EVENTS_TRIGGER = "chronicle_events_changed"
