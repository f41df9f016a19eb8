"""A campaign's log as a stored RFC 6962 Merkle tree: the leaves are its events' stored hashes, in
log order (the campaign's own events and its characters').

Every perfect subtree's hash is kept (`chronicle_tree_nodes`: tree, level, index, hash, and for a
leaf its log position), so any root or proof reads at most about 2 log2(n) stored nodes
(ledger/trust/merkle.py plans them). The table lives beside the read models and is extended lazily, by
whoever needs it (`extend`: a checkpoint, `verify --witness`, the check of a remembered
checkpoint), reading only the campaign's events after the last one it holds. It is not a read
model: `rebuild` leaves it alone, and it keeps what it recorded even if the events are rewritten
later; `verify` recomputes it from the events and reports where the two differ (ledger/trust/witness.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple
from uuid import UUID

from ..application.views.history import notifications_at
from ..store.mapper import mapper_of
from ..store.tables import TREE_NODES
from . import merkle

if TYPE_CHECKING:
    from ...projections.store import ViewStore
    from ..store.chronicle import Chronicle

TREES = "chronicle_trees"
NODES = TREE_NODES
WRITE = 20000  # leaves appended between two commits
WINDOW = 20000  # a campaign's log positions read at a time
PAGE = 2000  # events read at a time
TREE_LOCK = 0x6368726F74726565  # "chrotree": PostgreSQL's advisory lock for making the tables
_HEX = re.compile(r"[0-9a-f]{64}")

Decode = Callable[[bytes], dict[str, Any]]


class DamagedTree(Exception):
    """Nodes a stored tree must hold are missing (deleted behind chronicle's back)."""


class Head(NamedTuple):
    """A campaign's stored tree: its key, how many leaves it holds, and the log position of the last."""

    tree: int
    size: int
    position: int


class Leaf(NamedTuple):
    position: int
    hash: bytes  # the RFC 6962 leaf hash


def leaf_of(state: bytes, decode: Decode) -> bytes:
    """The leaf hash of a stored event: SHA-256(0x00 || the 32 bytes of its stored hash). An event
    whose state cannot be read, or whose hash is no hash, still has a leaf of its own (from its
    stored bytes): the tree records what the log holds."""
    try:
        stored = decode(state)["hash"]
    except Exception:  # noqa: BLE001 - a corrupt or tampered row: verify names it
        return merkle.leaf_hash(b"unreadable event " + hashlib.sha256(state).digest())
    if isinstance(stored, str) and _HEX.fullmatch(stored):
        return merkle.leaf_hash(bytes.fromhex(stored))
    return merkle.leaf_hash(b"malformed hash " + str(stored).encode("utf-8", "replace"))


class StoredTree:
    """The trees of every campaign in one ledger. `reads` counts the nodes read (tests count them)."""

    def __init__(self, views: ViewStore):
        self.views = views
        self.reads = 0
        self._made = False
        # per tree: the head `append` grew it to last (its transaction may yet roll back), and a head this
        # process grew it to and saw committed, with the perfect subtrees the next `append` grows from
        self._grown: dict[int, tuple[Head, merkle.Compact]] = {}
        self._settled: dict[int, tuple[Head, merkle.Compact]] = {}

    # tables ---------------------------------------------------------------------------------------

    def exists(self) -> bool:
        if self._made:
            return True
        if self.views.postgres:
            found = self.views.query("SELECT to_regclass(?) IS NOT NULL", (NODES,))[0][0]
        else:
            found = bool(self.views.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (NODES,)))
        self._made = bool(found)
        return self._made

    def make(self) -> None:
        """Make the tables on first use (on PostgreSQL under an advisory lock: concurrent CREATEs collide)."""
        if self.exists():
            return
        blob, rowid = ("BYTEA", "") if self.views.postgres else ("BLOB", " WITHOUT ROWID")
        with self.views.transaction() as cursor:
            if self.views.postgres:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (TREE_LOCK,))
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {TREES} (campaign TEXT NOT NULL PRIMARY KEY, tree INTEGER NOT NULL"
                " UNIQUE, size BIGINT NOT NULL, position BIGINT NOT NULL)"
            )
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {NODES} (tree INTEGER NOT NULL, level INTEGER NOT NULL, idx BIGINT"
                f" NOT NULL, hash {blob} NOT NULL, position BIGINT, PRIMARY KEY (tree, level, idx)){rowid}"
            )
        self._made = True

    # heads ----------------------------------------------------------------------------------------

    def head(self, campaign_id: UUID) -> Head | None:
        if not self.exists():
            return None
        rows = self.views.query(f"SELECT tree, size, position FROM {TREES} WHERE campaign = ?", (str(campaign_id),))
        return Head(*rows[0]) if rows else None

    def open(self, campaign_id: UUID) -> Head:
        """The campaign's tree, made empty if it has none yet (two processes at once make one)."""
        self.make()
        for _ in range(10):
            found = self.head(campaign_id)
            if found is not None:
                return found
            with self.views.transaction() as cursor:  # a key another campaign takes meanwhile: try again
                self.views.execute(
                    cursor,
                    f"INSERT INTO {TREES} (campaign, tree, size, position) SELECT ?, COALESCE(MAX(tree), 0) + 1,"
                    f" 0, 0 FROM {TREES} WHERE true ON CONFLICT DO NOTHING",
                    (str(campaign_id),),
                )
        raise RuntimeError("the campaign's tree could not be made")

    # growing --------------------------------------------------------------------------------------

    def append(self, head: Head, leaves: Iterable[Leaf]) -> Head:
        """Add leaves (in log order) after the `head.size` the tree holds; returns the new head.
        Written in transactions of WRITE leaves, each with the head it reaches: a process that
        dies leaves a smaller tree, never a broken one. Nodes another process wrote are kept."""
        compact = self._frontier(head)  # DamagedTree when they are gone
        rows: list[tuple[int, int, int, bytes, int | None]] = []
        position = head.position
        for leaf in leaves:
            for level, index, hashed in compact.append(leaf.hash):
                rows.append((head.tree, level, index, hashed, leaf.position if level == 0 else None))
            position = leaf.position
            if compact.size % WRITE == 0:
                self._write(head.tree, rows, compact.size, position)
                rows = []
        if rows:
            self._write(head.tree, rows, compact.size, position)
        grown = Head(head.tree, compact.size, position)
        self._grown[head.tree] = (grown, compact)
        return grown

    def _frontier(self, head: Head) -> merkle.Compact:
        """The perfect subtrees of the tree at HEAD, which `append` grows from: kept in memory when this
        process grew it to HEAD and saw that committed (a write's tree grows from where its last one left
        it), else read (O(log n) nodes)."""
        settled = self._settled.get(head.tree)
        if settled is not None and settled[0] == head:
            return settled[1].copy()
        return merkle.Compact(head.size, self._parts(head.tree, head.size))

    def settled(self, head: Head) -> bytes | None:
        """Told that the transaction which grew the tree to HEAD committed: its perfect subtrees are kept
        for the next `append`, and its root is returned, computed as it grew (None when this process did
        not grow it to HEAD last: then the stored nodes tell it)."""
        grown = self._grown.pop(head.tree, None)
        if grown is None or grown[0] != head:
            return None
        self._settled[head.tree] = grown
        return grown[1].root()

    def _write(self, tree: int, rows: list[tuple[int, int, int, bytes, int | None]], size: int, position: int) -> None:
        with self.views.transaction() as cursor:
            self.views.executemany(
                cursor,
                f"INSERT INTO {NODES} (tree, level, idx, hash, position) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                rows,
            )
            self.views.execute(
                cursor,
                f"UPDATE {TREES} SET size = ?, position = ? WHERE tree = ? AND size < ?",
                (size, position, tree, size),
            )

    # reading --------------------------------------------------------------------------------------

    def nodes(self, tree: int, wanted: list[merkle.Node]) -> dict[merkle.Node, bytes]:
        """The stored hashes of these perfect nodes (one query; absent ones are left out)."""
        if not wanted:
            return {}
        return {node: hashed for node, (hashed, _) in self.nodes_with_positions(tree, wanted).items()}

    def _parts(self, tree: int, size: int) -> list[bytes]:
        """The hashes of the perfect subtrees of the first `size` leaves (what a Compact starts from)."""
        wanted = merkle.parts(0, size)
        found = self.nodes(tree, wanted)
        if len(found) != len(wanted):
            raise DamagedTree(f"the stored tree lacks a node of its first {size} leaves")
        return [found[node] for node in wanted]

    def _prove(self, tree: int, plan: list[merkle.Range]) -> list[bytes]:
        try:
            return merkle.prove(plan, lambda wanted: self.nodes(tree, wanted))
        except KeyError as missing:
            raise DamagedTree(str(missing)) from None

    def root(self, tree: int, size: int) -> bytes:
        return self._prove(tree, [(0, size)])[0] if size else merkle.EMPTY_ROOT

    def consistency(self, tree: int, old: int, new: int) -> tuple[list[bytes], bytes]:
        """The consistency proof from the first `old` leaves to the first `new`, and the root of
        `new`, from one read of at most about 3 log2(new) nodes."""
        plan = merkle.consistency_plan(old, new) if old < new else []
        hashes = self._prove(tree, [*plan, (0, new)])
        return hashes[:-1], hashes[-1]

    def inclusion(self, tree: int, index: int, size: int) -> list[bytes]:
        return self._prove(tree, merkle.inclusion_plan(index, size))

    def reset(self, head: Head) -> Head:
        """Empty a damaged tree, to be grown again from the log as it is (a checkpoint remembered or
        noted elsewhere still holds what it held: a rewrite does not pass for the old log)."""
        self._grown.pop(head.tree, None)
        self._settled.pop(head.tree, None)
        with self.views.transaction() as cursor:
            self.views.execute(cursor, f"DELETE FROM {NODES} WHERE tree = ?", (head.tree,))
            self.views.execute(cursor, f"UPDATE {TREES} SET size = 0, position = 0 WHERE tree = ?", (head.tree,))
        return Head(head.tree, 0, 0)

    def leaves(self, tree: int, indexes: list[int]) -> dict[int, Leaf]:
        """The stored leaves at these indexes (leaf numbers, from 0)."""
        found = self.nodes_with_positions(tree, [(0, index) for index in indexes])
        return {index: Leaf(position, hashed) for (_, index), (hashed, position) in found.items()}

    def nodes_with_positions(self, tree: int, wanted: list[merkle.Node]) -> dict[merkle.Node, tuple[bytes, int]]:
        if not wanted:
            return {}
        pairs = ", ".join("(?, ?)" for _ in wanted)  # joined, not `IN`: SQLite then looks each one up by its key
        rows = self.views.query(
            f"WITH wanted (level, idx) AS (VALUES {pairs}) SELECT n.level, n.idx, n.hash, n.position FROM wanted"
            f" JOIN {NODES} n ON n.tree = ? AND n.level = wanted.level AND n.idx = wanted.idx",
            [*(number for node in wanted for number in node), tree],
        )
        self.reads += len(rows)
        return {(level, index): (bytes(hashed), position) for level, index, hashed, position in rows}

    def completed(self, tree: int, start: int, end: int) -> dict[merkle.Node, tuple[bytes, int | None]]:
        """Every stored node whose last leaf is one of leaves [start, end) (a page of a full comparison)."""
        ranges: list[int] = []
        level = 0
        while (1 << level) <= end:
            low, high = ((start + (1 << level)) >> level) - 1, (end >> level) - 1
            if low <= high:
                ranges += [level, low, high]
            level += 1
        if not ranges:
            return {}
        rows = self.views.query(
            f"WITH wanted (level, low, high) AS (VALUES {', '.join('(?, ?, ?)' for _ in ranges[::3])})"
            f" SELECT n.level, n.idx, n.hash, n.position FROM wanted JOIN {NODES} n ON n.tree = ?"
            " AND n.level = wanted.level AND n.idx BETWEEN wanted.low AND wanted.high",
            [*ranges, tree],
        )
        return {(level, index): (bytes(hashed), position) for level, index, hashed, position in rows}


def stored_tree(app: Chronicle) -> StoredTree:
    """The ledger's stored trees (one object per open ledger: it remembers that the tables exist)."""
    found = app.__dict__.get("_chronicle_tree")
    if found is None:
        found = app.__dict__["_chronicle_tree"] = StoredTree(app.views)
        found._made = bool(app.__dict__.get("_chronicle_tree_made"))  # (a PostgreSQL ledger's opening tells it)
    return found


def extend(app: Chronicle, campaign_id: UUID, saved: Mapping[int, str] | None = None, *, own: bool = False) -> Head:
    """The campaign's stored tree, extended by the events the log has after its last leaf (grown
    again from the first when the nodes it grows from were deleted). `saved`: the hashes, by log
    position, of the events the caller's transaction has just saved, with the index caught up to
    them (a write's): the index is not caught up again, and those events are not read back. `own`:
    SAVED are the campaign's own events only: when this PostgreSQL unit extended the tree already
    (the write's witness check, holding the events table's lock since), they are all the campaign
    gained since, and the tree grows by them without reading its head or the index again."""
    tree = stored_tree(app)
    key = app.unit_key()
    heads = _unit_heads(app, key)
    known = heads.get(campaign_id) if own and saved is not None else None
    grown: Head | None = None
    if known is not None and saved is not None:
        leaves = [Leaf(at, merkle.leaf_hash(bytes.fromhex(saved[at]))) for at in sorted(saved) if at > known.position]
        with contextlib.suppress(DamagedTree):  # (nodes deleted meanwhile: grown again below)
            grown = tree.append(known, leaves) if leaves else known
    if grown is None:
        head = tree.open(campaign_id)
        try:
            grown = _extend(app, campaign_id, head, saved)
        except DamagedTree:
            grown = _extend(app, campaign_id, tree.reset(head), saved)
    if key is not None:
        heads[campaign_id] = grown
    return grown


def _unit_heads(app: Chronicle, key: object) -> dict[UUID, Head]:
    """The heads the open PostgreSQL unit (`key`) grew the campaigns' trees to (none without one)."""
    held = app.__dict__.get("_chronicle_unit_heads")
    if key is None:
        return {}
    if held is None or held[0] != key:
        held = app.__dict__["_chronicle_unit_heads"] = (key, {})
    return held[1]


def rebuild(app: Chronicle, campaign_id: UUID) -> Head:
    """The campaign's stored tree grown again from the log's events (its nodes were found missing)."""
    tree = stored_tree(app)
    return _extend(app, campaign_id, tree.reset(tree.open(campaign_id)))


def _extend(app: Chronicle, campaign_id: UUID, head: Head, saved: Mapping[int, str] | None = None) -> Head:
    tree = stored_tree(app)
    if saved is None and not app.caught_up_in_unit():
        app.index.catch_up()
    # a page of positions at a time: a tree that lags a long log (an import's) grows in bounded memory
    pages = app.index.position_pages(campaign_id, WINDOW, after=head.position)
    first = next(pages, None)
    if first is None:
        return head
    decode = mapper_of(app).state_decoder()
    pages = itertools.chain([first], pages)
    return tree.append(head, (leaf for page in pages for leaf in _leaves(app, page, saved, decode)))


def _leaves(app: Chronicle, positions: list[int], saved: Mapping[int, str] | None, decode: Decode) -> Iterator[Leaf]:
    """The leaves at `positions`: from the hashes the caller saved when it saved them all (none read back),
    else from the log."""
    if saved is not None and all(at in saved for at in positions):
        return (Leaf(at, merkle.leaf_hash(bytes.fromhex(saved[at]))) for at in positions)
    return (Leaf(row.id, leaf_of(row.state, decode)) for row in notifications_at(app, positions))


def campaign_leaves(app: Chronicle, campaign_id: UUID) -> Iterator[Leaf]:
    """The campaign's leaves as the events table holds them now, in log order, read from the table
    itself (never from a read model): the campaign's own events and those of its characters (known
    by their registration, or, when that was removed, by the index)."""
    views = app.views
    table, at = views.events
    decode = mapper_of(app).state_decoder()
    members = {views.originator(campaign_id)}  # ids as the events table holds them
    members.update(views.originator(UUID(str(row[0]))) for row in app.index.characters(campaign_id))
    others: set[Any] = set()
    text = str(campaign_id)
    after = 0
    while True:
        page = views.query(
            f"SELECT {at}, originator_id, originator_version, state FROM {table} WHERE {at} > ? ORDER BY {at} LIMIT ?",
            (after, PAGE),
        )
        for position, owner, version, state in page:
            if owner in others:
                continue
            if owner not in members:
                if version != 1 or not _registered_in(bytes(state), decode, text):
                    others.add(owner)
                    continue
                members.add(owner)
            yield Leaf(position, leaf_of(bytes(state), decode))
        if len(page) < PAGE:
            return
        after = page[-1][0]


def _registered_in(state: bytes, decode: Decode, campaign: str) -> bool:
    try:
        return bool(decode(state).get("campaign_id") == campaign)
    except Exception:  # noqa: BLE001 - unreadable: not known to be this campaign's
        return False
