"""RFC 6962 Merkle trees (ledger/merkle.py) against published test vectors, and the stored tree's
proofs in O(log n) reads (ledger/tree.py).

The vectors (merkle_vectors.json) are copied as data from transparency-dev/merkle: its reference
tree of eight leaves (every perfect node and the root of every prefix), Certificate Transparency's
RFC 6962 inclusion and consistency proofs, and its probes: each proof with variants of it (a bit
flipped, a hash added or dropped, sizes and indexes changed) that a verifier must refuse.
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest

from chronicle.ledger import merkle

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
            proof = merkle.prove(merkle.consistency_plan(old, new), lambda wanted, nodes=nodes: nodes)
            assert merkle.verify_consistency(old, new, merkle.root(leaves[:old]), head, proof)
            if old < new:
                forged = merkle.root([*leaves[: old - 1], merkle.leaf_hash(b"forged")])
                assert not merkle.verify_consistency(old, new, forged, head, proof)
        for index in range(new):
            proof = merkle.prove(merkle.inclusion_plan(index, new), lambda wanted, nodes=nodes: nodes)
            assert merkle.verify_inclusion(index, new, leaves[index], proof, head)
            assert not merkle.verify_inclusion(index, new, merkle.leaf_hash(b"other"), proof, head)


def _mth(leaves: list[bytes]) -> bytes:
    """RFC 6962's recursive definition, written out: the reference the stored parts must agree with."""
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return merkle.node_hash(_mth(leaves[:k]), _mth(leaves[k:]))
