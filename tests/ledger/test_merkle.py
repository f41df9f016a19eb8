"""RFC 6962 Merkle trees (ledger/trust/merkle.py) against published test vectors, and the stored tree's
proofs in O(log n) reads (ledger/trust/tree.py).

The vectors (merkle_vectors.json) are copied as data from transparency-dev/merkle: its reference
tree of eight leaves (every perfect node and the root of every prefix), Certificate Transparency's
RFC 6962 inclusion and consistency proofs, and its probes: each proof with variants of it (a bit
flipped, a hash added or dropped, sizes and indexes changed) that a verifier must refuse.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from uuid import uuid4

import pytest

from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.trust import merkle
from chronicle.ledger.trust.tree import DamagedTree, Leaf, StoredTree

VECTORS = json.loads((Path(__file__).parent / "merkle_vectors.json").read_text())
LEAVES = [merkle.leaf_hash(bytes.fromhex(leaf)) for leaf in VECTORS["leaves"]]


def hexes(values: list[str]) -> list[bytes]:
    return [bytes.fromhex(value) for value in values]


def b64(values: list[str] | None) -> list[bytes]:
    return [base64.b64decode(value) for value in values or []]


def nodes_of(leaves: list[bytes]) -> dict[merkle.Node, bytes]:
    """Every perfect node of the tree of `leaves`, as a store keeps them."""
    compact, found = merkle.Compact(), {}
    for leaf in leaves:
        found.update({(level, index): hashed for level, index, hashed in compact.append(leaf)})
    return found


def all_of(nodes: dict[merkle.Node, bytes]) -> Callable[[list[merkle.Node]], dict[merkle.Node, bytes]]:
    """A `fetch` for `merkle.prove` that answers with every node of `nodes`, whatever it asks for."""
    return lambda wanted: nodes


def test_the_root_of_every_prefix_is_the_published_one():
    assert [merkle.root(LEAVES[:n]).hex() for n in range(len(LEAVES) + 1)] == VECTORS["roots"]


def test_every_perfect_node_is_the_published_one():
    nodes = nodes_of(LEAVES)
    assert [[nodes[(level, i)].hex() for i in range(8 >> level)] for level in range(4)] == VECTORS["nodes"]


def test_a_compact_range_grows_from_stored_parts_to_the_same_roots():
    nodes = nodes_of(LEAVES)
    for size in range(9):
        compact = merkle.Compact(size, [nodes[part] for part in merkle.parts(0, size)])
        assert compact.root().hex() == VECTORS["roots"][size]
        for leaf in LEAVES[size:]:
            compact.append(leaf)
        assert compact.root().hex() == VECTORS["roots"][8]


@pytest.mark.parametrize("vector", VECTORS["inclusion_proofs"], ids=lambda v: f"{v['index']}-of-{v['size']}")
def test_inclusion_proofs_are_the_published_ones(vector):
    index, size = vector["index"], vector["size"]
    proof = merkle.prove(merkle.inclusion_plan(index, size), lambda wanted: nodes_of(LEAVES[:size]))
    assert [p.hex() for p in proof] == vector["proof"]
    head = bytes.fromhex(VECTORS["roots"][size])
    assert merkle.verify_inclusion(index, size, LEAVES[index], proof, head)


@pytest.mark.parametrize("vector", VECTORS["consistency_proofs"], ids=lambda v: f"{v['old']}-to-{v['new']}")
def test_consistency_proofs_are_the_published_ones(vector):
    old, new = vector["old"], vector["new"]
    proof = merkle.prove(merkle.consistency_plan(old, new), lambda wanted: nodes_of(LEAVES[:new]))
    assert [p.hex() for p in proof] == vector["proof"]
    roots = hexes(VECTORS["roots"])
    assert merkle.verify_consistency(old, new, roots[old], roots[new], proof)


@pytest.mark.parametrize("probe", VECTORS["inclusion_probes"], ids=lambda p: p["file"].removeprefix("testdata/"))
def test_inclusion_probes_verify_exactly_when_published_so(probe):
    verified = merkle.verify_inclusion(
        probe["leafIdx"],
        probe["treeSize"],
        base64.b64decode(probe["leafHash"] or ""),
        b64(probe["proof"]),
        base64.b64decode(probe["root"] or ""),
    )
    assert verified is not probe["wantErr"]


@pytest.mark.parametrize("probe", VECTORS["consistency_probes"], ids=lambda p: p["file"].removeprefix("testdata/"))
def test_consistency_probes_verify_exactly_when_published_so(probe):
    verified = merkle.verify_consistency(
        probe["size1"],
        probe["size2"],
        base64.b64decode(probe["root1"] or ""),
        base64.b64decode(probe["root2"] or ""),
        b64(probe["proof"]),
    )
    assert verified is not probe["wantErr"]


def test_every_proof_of_larger_trees_verifies_and_a_changed_leaf_breaks_it():
    """Beyond the published eight leaves: every size and index up to 70, against the recursive MTH."""
    rng = random.Random(6962)
    leaves = [merkle.leaf_hash(rng.randbytes(rng.randrange(40))) for _ in range(70)]
    for new in range(1, 71):
        nodes = nodes_of(leaves[:new])
        head = merkle.root(leaves[:new])
        assert head == _mth(leaves[:new])
        for old in range(1, new + 1):
            proof = merkle.prove(merkle.consistency_plan(old, new), all_of(nodes))
            assert merkle.verify_consistency(old, new, merkle.root(leaves[:old]), head, proof)
            if old < new:
                forged = merkle.root([*leaves[: old - 1], merkle.leaf_hash(b"forged")])
                assert not merkle.verify_consistency(old, new, forged, head, proof)
        for index in range(new):
            proof = merkle.prove(merkle.inclusion_plan(index, new), all_of(nodes))
            assert merkle.verify_inclusion(index, new, leaves[index], proof, head)
            assert not merkle.verify_inclusion(index, new, merkle.leaf_hash(b"other"), proof, head)


def _mth(leaves: list[bytes]) -> bytes:
    """RFC 6962's recursive definition, written out: the reference the stored parts must agree with."""
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return merkle.node_hash(_mth(leaves[:k]), _mth(leaves[k:]))


# the stored tree ----------------------------------------------------------------------------------


def synthetic(n: int) -> list[bytes]:
    return [merkle.leaf_hash(hashlib.sha256(i.to_bytes(8, "big")).digest()) for i in range(n)]


@pytest.fixture
def stored(db):
    app = open_ledger(db)
    yield StoredTree(app.views)
    app.close()


def test_a_stored_tree_grown_in_steps_answers_as_the_tree_in_memory(stored):
    leaves = synthetic(300)
    head = stored.open(uuid4())
    for start, end in ((0, 1), (1, 7), (7, 128), (128, 300)):
        head = stored.append(head, (Leaf(i + 10, leaves[i]) for i in range(start, end)))
        assert head.size == end and head.position == end + 9
        assert stored.root(head.tree, end) == merkle.root(leaves[:end])
    for old in (1, 2, 5, 64, 200, 299, 300):
        proof, newest = stored.consistency(head.tree, old, 300)
        assert newest == merkle.root(leaves)
        assert merkle.verify_consistency(old, 300, merkle.root(leaves[:old]), newest, proof)
    for index in (0, 77, 299):
        assert merkle.verify_inclusion(index, 300, leaves[index], stored.inclusion(head.tree, index, 300), newest)
    assert stored.leaves(head.tree, [0, 299]) == {0: Leaf(10, leaves[0]), 299: Leaf(309, leaves[299])}
    other = stored.open(uuid4())  # each campaign has a tree of its own
    assert other.tree != head.tree and other.size == 0


def test_a_stored_tree_missing_nodes_says_so_and_can_be_grown_again(stored):
    leaves = synthetic(20)
    head = stored.append(stored.open(uuid4()), (Leaf(i + 1, leaf) for i, leaf in enumerate(leaves)))
    with stored.views.transaction() as cursor:
        stored.views.execute(cursor, "DELETE FROM chronicle_tree_nodes WHERE level = 2")
    with pytest.raises(DamagedTree):
        stored.root(head.tree, 20)
    head = stored.append(stored.reset(head), (Leaf(i + 1, leaf) for i, leaf in enumerate(leaves)))
    assert stored.root(head.tree, 20) == merkle.root(leaves)


def test_a_million_leaves_prove_consistency_from_a_few_dozen_stored_nodes(sqlite_db):
    """A consistency proof (and the roots it joins) over a 1,000,000-leaf campaign reads O(log n)
    stored nodes: counted as the rows the queries return, and within 3 log2(n)."""
    n, old = 1_000_000, 123_457
    leaves = synthetic(n)
    app = open_ledger(sqlite_db)
    try:
        stored = StoredTree(app.views)
        head = stored.append(stored.open(uuid4()), (Leaf(i + 1, leaf) for i, leaf in enumerate(leaves)))
        stored.reads = 0
        proof, newest = stored.consistency(head.tree, old, n)
        old_root = stored.root(head.tree, old)
        assert stored.reads <= 3 * math.log2(n)  # the proof, the new root and the old one
        compact = merkle.Compact()
        for i, leaf in enumerate(leaves):
            compact.append(leaf)
            if i + 1 == old:
                assert compact.root() == old_root
        assert compact.root() == newest
        assert merkle.verify_consistency(old, n, old_root, newest, proof)
        stored.reads = 0
        assert merkle.verify_inclusion(old, n, leaves[old], stored.inclusion(head.tree, old, n), newest)
        assert stored.reads <= 2 * math.log2(n)
    finally:
        app.close()
