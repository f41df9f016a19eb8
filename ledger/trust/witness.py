"""A witnessed history: checkpoints of a campaign's log, proofs that today's log extends them, and
the checkpoints each chronicle remembers.

- `checkpoint` signs the campaign's stored tree head (ledger/trust/tree.py) as a C2SP note
  (ledger/trust/signed_note.py) and remembers it.
- `audit` (`verify`, and `verify --witness NOTE`) recomputes the tree from the events table and
  compares it with every stored node: the first leaf where they differ names the first position
  whose history changed (edited, removed, re-ordered). A note is extended when the first `size`
  leaves of today's log hash to its root; the RFC 6962 consistency proof from the stored nodes is
  then checked too, and reported.
- Each chronicle keeps, in its folder (`checkpoints/` in `$CHRONICLE_HOME`, a small file per ledger and
  campaign; `checkpoints.json`, every head in one file, where an older chronicle kept them), the last
  checkpoint it saw of each campaign it wrote to or checkpointed. `witnessed` checks, in O(log n)
  stored nodes and a few rows, that the log still extends it; `refuse_unwitnessed` makes that a
  refusal (for writes), `remember` notes the log's new head (after a write).
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from uuid import UUID

from ...domain.errors import Refusal
from ..application.views.history import notifications_at
from ..store.mapper import mapper_of
from ..store.targets import is_postgres, redact
from . import memory, merkle, signed_note, tripwire
from .identity import folder
from .signed_note import Checkpoint, Signer
from .tree import DamagedTree, Head, Leaf, campaign_leaves, extend, leaf_of, rebuild, stored_tree

if TYPE_CHECKING:
    from ..store.chronicle import Chronicle

MEMORY = "checkpoints"  # a file per ledger and campaign (ledger/trust/memory.py)
OLDER_MEMORY = "checkpoints.json"  # every head in one file: still read for a campaign with no file of its own
PAGE = 4096  # leaves compared at a time


class Problem(NamedTuple):
    position: int
    problem: str


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# checkpoints ----------------------------------------------------------------------------------------


def checkpoint(
    app: Chronicle, campaign_id: UUID, signer: Signer, at: Path | None = None, where: str = ""
) -> Checkpoint:
    """A note signed by `signer` over the campaign's log as it is now; remembered as seen. Refused
    (exit 1) when the log no longer extends the checkpoint this chronicle saw last: signing it
    would vouch for a rewritten history."""
    problem, head = _witnessed(app, campaign_id, at, where)
    if problem is not None:
        raise Refusal(problem.problem)
    head = head or extend(app, campaign_id)
    made = signed_note.sign(campaign_id, head.size, stored_tree(app).root(head.tree, head.size), signer)
    _note(campaign_id, made.size, made.root, at, where)
    return made


# remembered checkpoints -----------------------------------------------------------------------------


def witnessed(app: Chronicle, campaign_id: UUID, at: Path | None = None, where: str = "") -> Problem | None:
    """Why the log no longer extends the last checkpoint this chronicle saw of the campaign (None
    when it does, or when it saw none). Extends the stored tree first (reading only new events);
    checks the remembered root with a consistency proof from the stored nodes, and that the events
    at the ends of the remembered and the stored tree are still in the log as they were (a rewrite
    of the newest events). An edit further back, behind the stored tree's back, is `verify`'s to find."""
    return _witnessed(app, campaign_id, at, where)[0]


def _witnessed(
    app: Chronicle, campaign_id: UUID, at: Path | None, where: str = ""
) -> tuple[Problem | None, Head | None]:
    seen = remembered(campaign_id, at, where)
    if seen is None or seen[0] == 0:
        return None, None
    head = extend(app, campaign_id)
    ends: dict[int, Leaf] = {}
    try:
        problem = _extends(app, head, *seen, ends)
    except DamagedTree:  # nodes deleted: grown again from the log, which must still extend what was seen
        head = rebuild(app, campaign_id)
        problem = _extends(app, head, *seen, ends)
    if problem is not None and not tripwire.armed(app):
        return problem, head
    tripped = _tripped(app, campaign_id, head, seen[0], ends)  # (it may know an earlier change than the ends do)
    found = [p for p in (problem, tripped) if p is not None]
    return (min(found, key=lambda p: p.position or head.position + 1) if found else None), head


def _tripped(app: Chronicle, campaign_id: UUID, head: Head, size: int, ends: dict[int, Leaf]) -> Problem | None:
    """A row of the first SIZE events removed or rewritten behind chronicle's back, as the events table's
    tripwire noted it (ledger/trust/tripwire.py). Where it is missing (a ledger from before it, or removed), the
    campaign's whole log is compared with its stored tree once, as `verify` compares them, and it is made."""
    if not tripwire.armed(app):
        problems, _ = audit(app, campaign_id)
        tripwire.arm(app)
        return Problem(problems[0].position, _rewritten(size, problems[0].problem)) if problems else None
    last = ends.get(size - 1)  # (read by the consistency check, which holds the ends of what was seen)
    found = tripwire.changed(app, campaign_id, last.position if last is not None else head.position)
    if found is None:
        return None
    position, change = found
    return Problem(position, _rewritten(size, f"#{position} was {change}" if position else "its events were removed"))


def _extends(app: Chronicle, head: Head, size: int, root: bytes, ends: dict[int, Leaf] | None = None) -> Problem | None:
    """Why the stored tree no longer extends the one of SIZE and ROOT (None when it does); `ends` gets the
    stored leaves at the ends of both."""
    if head.size < size:
        return Problem(0, _rewritten(size, f"the log holds {head.size} of its events: events were removed"))
    tree = stored_tree(app)
    proof, newest = tree.consistency(head.tree, size, head.size)
    if not merkle.verify_consistency(size, head.size, root, newest, proof):
        return Problem(0, _rewritten(size, "its first events no longer hash to the root seen: history was rewritten"))
    read = tree.leaves(head.tree, sorted({size - 1, head.size - 1}))
    if ends is not None:
        ends.update(read)
    return _ends(app, read, size)


def _ends(app: Chronicle, ends: dict[int, Leaf], size: int) -> Problem | None:
    """Whether the stored leaves `ends` are still the events at their positions in the log."""
    rows = {row.id: row for row in notifications_at(app, sorted(leaf.position for leaf in ends.values()))}
    decode = mapper_of(app).state_decoder()
    for leaf in sorted(ends.values()):
        row = rows.get(leaf.position)
        if row is None:
            return Problem(leaf.position, _rewritten(size, f"#{leaf.position} was removed"))
        if leaf_of(row.state, decode) != leaf.hash:
            return Problem(leaf.position, _rewritten(size, f"#{leaf.position} was rewritten"))
    return None


def _rewritten(size: int, why: str) -> str:
    return (
        f"the log no longer extends the checkpoint of {size} events this chronicle saw: {why}"
        " (`chronicle verify` names the first changed event)"
    )


def refuse_unwitnessed(app: Chronicle, campaign_id: UUID, at: Path | None = None, where: str = "") -> None:
    """Refuse (exit 1) when the log no longer extends the last checkpoint this chronicle saw. A log with
    fewer events than that is not refused here: inside a write's transaction, another process of this
    chronicle may have noted a head newer than this transaction's snapshot of the log. A read (outside any
    transaction) warns about it, `verify` names it, and the next write that finds the log at or past that
    size no longer extending it is refused."""
    problem, head = _witnessed(app, campaign_id, at, where)
    if problem is None:
        return
    seen = remembered(campaign_id, at, where)
    if head is not None and seen is not None and head.size < seen[0]:
        return
    raise Refusal(problem.problem)


def remember(app: Chronicle, campaign_id: UUID, at: Path | None = None, where: str = "") -> None:
    """Note the log's head now as the last checkpoint this chronicle saw of the campaign (after a
    write). The stored tree is extended first; a head that does not extend the one remembered is
    not noted (the older stays, and `witnessed` keeps saying so)."""
    problem, head = _witnessed(app, campaign_id, at, where)
    if problem is not None:
        return
    head = head or extend(app, campaign_id)
    _note(campaign_id, head.size, stored_tree(app).root(head.tree, head.size), at, where)


def note_head(app: Chronicle, campaign_id: UUID, head: Head, at: Path | None = None, where: str = "") -> None:
    """`remember`, right after a write whose transaction checked first that the log extended what was seen
    (`refuse_unwitnessed`) and extended the stored tree by its events (to HEAD): HEAD is noted, with the
    root the tree was grown to (read from the stored nodes only when another process grew it there)."""
    tree = stored_tree(app)
    root = tree.settled(head)
    _note(campaign_id, head.size, tree.root(head.tree, head.size) if root is None else root, at, where)


def remembered(campaign_id: UUID, at: Path | None = None, where: str = "") -> tuple[int, bytes] | None:
    """The size and root of the last checkpoint this chronicle saw of the campaign."""
    key = seen_key(campaign_id, where)
    return _seen(_entry(folder(at), key))


def _entry(home: Path, key: str) -> dict[str, Any] | None:
    """What the chronicle folder HOME remembers under KEY: its own file's, else the older form's entry."""
    found = memory.read(memory.entry(home / MEMORY, key))
    if found.get("key") == key:
        return found
    older = memory.kept(home / OLDER_MEMORY).get(key)
    return older if isinstance(older, dict) else None


def _seen(entry: dict[str, Any] | None) -> tuple[int, bytes] | None:
    try:
        return int(entry["size"]), base64.b64decode(entry["root"], validate=True)  # type: ignore[index]
    except (TypeError, KeyError, ValueError):
        return None  # none, or an entry no chronicle wrote: as if unseen


def _note(campaign_id: UUID, size: int, root: bytes, at: Path | None, where: str = "") -> None:
    home, key = folder(at), seen_key(campaign_id, where)
    path = memory.entry(home / MEMORY, key)
    with memory.locked(path):
        earlier = _entry(home, key)
        if isinstance(earlier, dict) and isinstance(earlier.get("size"), int) and earlier["size"] > size:
            return  # another process noted a later head meanwhile
        memory.rewrite(path, {"key": key, "size": size, "root": b64(root)})


def seen_key(campaign_id: UUID, where: str) -> str:
    """What a remembered head is kept under: the campaign's id and where its ledger is (a SQLite file's
    real path, a PostgreSQL URL without its password), so another ledger holding a campaign of the same
    name (a demo in another folder, a copy) is another campaign to remember."""
    if not where:
        return str(campaign_id)
    return f"{campaign_id} {redact(where) if is_postgres(where) else os.path.realpath(where)}"


# verify ---------------------------------------------------------------------------------------------


class Difference(NamedTuple):
    """The first leaf (or node) where the stored tree and the log's events disagree."""

    leaf: int  # its number (from 0)
    stored: int | None  # the position the stored tree recorded for it
    today: int | None  # the position of the log's event there now
    problem: str


def audit(app: Chronicle, campaign_id: UUID, note: Checkpoint | None = None) -> tuple[list[Problem], dict[str, Any]]:
    """`verify`'s part: the campaign's tree recomputed from the events table, compared with the stored
    nodes (when the campaign has a stored tree), and with `note` when given (the stored tree is then
    extended to the log's end first). Returns the problems and, with a note, what `--json` reports."""
    tree = stored_tree(app)
    head = extend(app, campaign_id) if note is not None else tree.head(campaign_id)
    if head is None or (head.size == 0 and note is None):
        return [], {}
    walk = _Walk(app, head, note.size if note is not None else None)
    walk.run(campaign_leaves(app, campaign_id))
    problems = [] if walk.difference is None else [Problem(_place(walk.difference), walk.difference.problem)]
    if note is None:
        return problems, {}
    return _witness(app, head, note, walk, problems)


def _place(found: Difference) -> int:
    """The first position whose history changed: the earlier of the one recorded and the one now there."""
    return min((p for p in (found.stored, found.today) if p is not None), default=0)


class _Walk:
    """Today's leaves folded into a tree and compared, a page at a time, with every stored node."""

    def __init__(self, app: Chronicle, head: Head, old: int | None):
        self.app, self.head, self.old = app, head, old
        self.tree = stored_tree(app)
        self.compact = merkle.Compact()
        self.difference: Difference | None = None
        self.old_root: bytes | None = merkle.EMPTY_ROOT if old == 0 else None

    def run(self, leaves: Iterator[Leaf]) -> None:
        page: list[Leaf] = []
        for leaf in leaves:
            page.append(leaf)
            if len(page) == PAGE:
                self._page(page)
                page = []
        self._page(page)
        size = self.compact.size
        if self.difference is None and size < self.head.size:
            gone = self.tree.leaves(self.head.tree, [size]).get(size)
            self.difference = Difference(
                size,
                gone.position if gone else None,
                None,
                "the campaign's Merkle tree recorded an event here that the log no longer has: the newest events"
                " were removed",
            )

    def _page(self, page: list[Leaf]) -> None:
        start = self.compact.size
        compare = self.difference is None and start < self.head.size
        stored = self.tree.completed(self.head.tree, start, start + len(page)) if compare else {}
        for leaf in page:
            made = self.compact.append(leaf.hash)
            if self.compact.size == self.old:
                self.old_root = self.compact.root()
            if not compare or made[0][1] >= self.head.size:
                continue
            for level, index, hashed in made:
                kept = stored.get((level, index))
                if kept is None or kept[0] != hashed:
                    self.difference = self._differs(made[0][1], leaf, level, kept)
                    compare = False
                    break

    def _differs(self, index: int, leaf: Leaf, level: int, kept: tuple[bytes, int | None] | None) -> Difference:
        if level > 0 or kept is None:
            return Difference(
                index,
                None,
                leaf.position,
                "the campaign's stored Merkle tree no longer hashes the log's events here: its nodes were edited",
            )
        recorded = kept[1]
        if recorded == leaf.position:
            why = "this event is not the one the campaign's Merkle tree recorded here: it was rewritten"
        elif recorded is not None and not self._present(recorded):
            why = "the campaign's Merkle tree recorded an event here that the log no longer has: it was removed"
        else:
            why = "the log's events are no longer in the order the campaign's Merkle tree recorded: moved or inserted"
        return Difference(index, recorded, leaf.position, why)

    def _present(self, position: int) -> bool:
        return any(True for _ in notifications_at(self.app, [position]))


def _witness(
    app: Chronicle, head: Head, note: Checkpoint, walk: _Walk, problems: list[Problem]
) -> tuple[list[Problem], dict[str, Any]]:
    size, found = walk.compact.size, walk.difference
    extends = note.size <= size and walk.old_root == note.root
    report: dict[str, Any] = {
        "campaign": str(note.campaign),
        "size": note.size,
        "root": b64(note.root),
        "key": note.key,
        "extends": extends,
        "position": None,
        "log": {"size": size, "root": b64(walk.compact.root())},
    }
    prefix = f"the log no longer extends the checkpoint of {note.size} events signed by {note.key}: "
    if extends:
        if found is None and note.size > 0:  # the stored nodes are the log's: prove it from them, in O(log n) reads
            proof, newest = stored_tree(app).consistency(head.tree, note.size, head.size)
            report["proof"] = [b64(hashed) for hashed in proof]
            if not merkle.verify_consistency(note.size, head.size, note.root, newest, proof):
                problems.append(Problem(0, prefix + "its consistency proof from the stored tree does not verify"))
        return problems, report
    if found is not None and found.leaf < note.size:
        place = _place(found)
        problems[0] = Problem(place, prefix + found.problem)
    elif size < note.size:
        place = problems[0].position if problems else 0
        problems.append(Problem(place, prefix + f"it was signed over {note.size} events, the log has {size}: removed"))
    else:
        place = 0
        problems.append(
            Problem(
                0,
                prefix + "the stored Merkle tree was rewritten with the events, so the first changed event cannot be"
                " named (an export or an older copy of the ledger can)",
            )
        )
    report["position"] = place
    return problems, report
