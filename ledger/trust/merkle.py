"""Merkle trees as RFC 6962 defines them (section 2.1; RFC 9162 section 2.1 gives the same algorithms).

A leaf's hash is SHA-256(0x00 || leaf), an inner node's SHA-256(0x01 || left || right); the tree of
n leaves splits at the largest power of two below n. A node is named (level, index): the perfect
subtree over leaves [index * 2**level, (index + 1) * 2**level). Any subtree a proof needs is the
fold of at most log2(n) such perfect subtrees (`parts`), so a store that keeps the perfect ones
answers a proof in O(log n) reads: proofs are planned as ranges of leaves first (`inclusion_plan`,
`consistency_plan`), then the nodes they need are fetched at once (`prove`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

Node = tuple[int, int]  # (level, index)
Range = tuple[int, int]  # leaves [start, end)

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(size: int) -> int:
    """The largest power of two smaller than `size` (> 1)."""
    return 1 << ((size - 1).bit_length() - 1)


def root(leaf_hashes: Sequence[bytes]) -> bytes:
    """The tree head of these leaf hashes (MTH of RFC 6962)."""
    if not leaf_hashes:
        return EMPTY_ROOT
    compact = Compact()
    for leaf in leaf_hashes:
        compact.append(leaf)
    return compact.root()


def parts(start: int, end: int) -> list[Node]:
    """The perfect subtrees that make up leaves [start, end), left to right, each as large as its
    place allows. For a subtree of the RFC's recursion (and for any [0, n)) they fold, right to
    left, into that subtree's hash (`fold`)."""
    found = []
    while start < end:
        level = (start & -start).bit_length() - 1 if start else (end - start).bit_length() - 1
        while 1 << level > end - start:
            level -= 1
        found.append((level, start >> level))
        start += 1 << level
    return found


def fold(hashes: Sequence[bytes]) -> bytes:
    """The hash of the subtree whose perfect parts, left to right, have these hashes."""
    result = hashes[-1]
    for left in reversed(hashes[:-1]):
        result = node_hash(left, result)
    return result


class Compact:
    """The roots of the perfect subtrees of a tree's first `size` leaves (`parts(0, size)`): enough to
    append leaves and to hash the tree, in O(log n) memory. `append` returns every node it completes."""

    def __init__(self, size: int = 0, hashes: Sequence[bytes] = ()):
        levels = [level for level, _ in parts(0, size)]
        if len(levels) != len(hashes):
            raise ValueError(f"a tree of {size} leaves has {len(levels)} perfect subtrees, not {len(hashes)}")
        self.size = size
        self._stack = list(zip(levels, hashes, strict=True))

    def append(self, leaf: bytes) -> list[tuple[int, int, bytes]]:
        """Add the next leaf hash; returns (level, index, hash) of the leaf and of each node it completes."""
        at = self.size
        stack = self._stack
        stack.append((0, leaf))
        made = [(0, at, leaf)]
        while len(stack) > 1 and stack[-1][0] == stack[-2][0]:
            level, right = stack.pop()
            _, left = stack.pop()
            level += 1
            joined = node_hash(left, right)
            stack.append((level, joined))
            made.append((level, ((at + 1) >> level) - 1, joined))
        self.size = at + 1
        return made

    def root(self) -> bytes:
        return fold([hashed for _, hashed in self._stack]) if self._stack else EMPTY_ROOT

    def copy(self) -> Compact:
        """Another Compact of the same leaves, to append to without changing this one."""
        found = Compact()
        found.size, found._stack = self.size, list(self._stack)
        return found


# planning proofs ----------------------------------------------------------------------------------


def inclusion_plan(index: int, size: int) -> list[Range]:
    """The subtrees whose hashes prove leaf `index` is in the tree of `size` leaves (PATH, RFC 6962
    2.1.1), leaf side first."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    plan: list[Range] = []
    start, end = 0, size
    while end - start > 1:
        k = _split(end - start)
        if index - start < k:
            plan.append((start + k, end))
            end = start + k
        else:
            plan.append((start, start + k))
            start += k
    return plan[::-1]


def consistency_plan(old: int, new: int) -> list[Range]:
    """The subtrees whose hashes prove the tree of `old` leaves is a prefix of the one of `new`
    (PROOF, RFC 6962 2.1.2), in the RFC's order."""
    if not 0 < old <= new:
        raise ValueError(f"no consistency proof from {old} to {new} leaves")
    plan: list[Range] = []
    start, end, whole = 0, new, True
    m = old
    while m != end - start:
        k = _split(end - start)
        if m <= k:
            plan.append((start + k, end))
            end = start + k
        else:
            plan.append((start, start + k))
            m -= k
            start += k
            whole = False
    if not whole:
        plan.append((start, end))
    return plan[::-1]


def prove(plan: Sequence[Range], fetch: Callable[[list[Node]], dict[Node, bytes]]) -> list[bytes]:
    """The hashes of the planned subtrees, from the perfect nodes `fetch` returns (asked once, for all)."""
    needed = {subtree: parts(*subtree) for subtree in plan}
    wanted = sorted({node for nodes in needed.values() for node in nodes})
    found = fetch(wanted) if wanted else {}
    missing = [node for node in wanted if node not in found]
    if missing:
        raise KeyError(f"the stored tree lacks node {missing[0]}")
    return [fold([found[node] for node in needed[subtree]]) for subtree in plan]


# verifying proofs (RFC 9162 2.1.3.2 and 2.1.4.2) ---------------------------------------------------


def _hashes(*values: bytes) -> bool:
    """Whether each value has a SHA-256 hash's length (anything else is no hash of this tree)."""
    return all(len(value) == 32 for value in values)


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], head: bytes) -> bool:
    """Whether `proof` shows the leaf hash `leaf` at `index` in the tree of `size` leaves whose root is `head`."""
    if not 0 <= index < size or not _hashes(leaf, *proof):
        return False
    fn, sn, result = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            result = node_hash(sibling, result)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            result = node_hash(result, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and result == head


def verify_consistency(old: int, new: int, old_head: bytes, new_head: bytes, proof: Sequence[bytes]) -> bool:
    """Whether `proof` shows the tree of `old` leaves (root `old_head`) is a prefix of the one of
    `new` leaves (root `new_head`). Equal sizes take an empty proof and equal roots; a proof from
    the empty tree proves nothing and is refused, as transparency-dev's verifier refuses it."""
    if old == 0 or new < old or not _hashes(*proof):
        return False
    if old == new:
        return not proof and old_head == new_head
    if not proof:
        return False
    path = list(proof)
    if old & (old - 1) == 0:  # a power of two: the old tree is a node of the new one
        path.insert(0, old_head)
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    first = second = path[0]
    for sibling in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            first, second = node_hash(sibling, first), node_hash(sibling, second)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            second = node_hash(second, sibling)
        fn, sn = fn >> 1, sn >> 1
    return first == old_head and second == new_head and sn == 0
