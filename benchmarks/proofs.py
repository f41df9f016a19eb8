"""The witness's proofs at scale: a campaign's stored Merkle tree of LEAVES leaves (as a ledger of a
million events grows it, in the ledger's own tables), then consistency proofs from earlier sizes to
the whole, each read from the stored nodes and verified, as `verify --witness` and the table view's
proof endpoint do. Goal: a consistency proof at 1M events in < 20 ms.

`python -m benchmarks.proofs` runs these rows alone; `python -m benchmarks` includes them."""

from __future__ import annotations

import hashlib
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from .measure import row

LEAVES = 1_000_000
PROOFS = 200


def measure(work: Path, leaves: int = LEAVES) -> None:
    from chronicle.ledger.store.chronicle import open_ledger
    from chronicle.ledger.trust import merkle
    from chronicle.ledger.trust.tree import Leaf, StoredTree

    app = open_ledger(str(work / "proofs.db"))
    try:
        tree = StoredTree(app.views)
        head = tree.open(uuid.uuid4())
        hashes = (merkle.leaf_hash(hashlib.sha256(i.to_bytes(8, "big")).digest()) for i in range(leaves))
        started = time.perf_counter()
        head = tree.append(head, (Leaf(i + 1, h) for i, h in enumerate(hashes)))
        grown = time.perf_counter() - started
        row(f"witness: a stored tree grown to {leaves:,} leaves at once", f"{leaves / grown:,.0f} leaves/s")
        fresh = StoredTree(app.views)  # nothing of the growth kept in memory: every node is read
        rng = random.Random(7)
        times, nodes = [], []
        for _ in range(PROOFS):
            old = rng.randrange(1, head.size)
            before = fresh.reads
            started = time.perf_counter()
            old_root = fresh.root(head.tree, old)
            proof, new_root = fresh.consistency(head.tree, old, head.size)
            assert merkle.verify_consistency(old, head.size, old_root, new_root, proof)
            times.append(time.perf_counter() - started)
            nodes.append(fresh.reads - before)
        ordered = sorted(times)
        p50, p99 = statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.99) - 1] * 1000
        row(
            f"witness: a consistency proof at {head.size:,} leaves, read from the stored nodes and verified",
            f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, {statistics.median(nodes):.0f} nodes read",
            "goal < 20 ms",
        )
    finally:
        app.close()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        measure(Path(folder), int(sys.argv[1]) if len(sys.argv) > 1 else LEAVES)
