"""The secret half of the ledger's fair dice (docs/fair-dice.md): each campaign's chains of seeds, kept
beside the events and never in the log, an export or a page. A chain's seeds are written when the
ledger commits to it; each roll takes the next one in the transaction of the command that rolls, so a
command that loses a race, fails or is refused takes none (its transaction, and the count, are rolled
back), and two writers cannot take the same one: on SQLite the second one's write finds its snapshot
stale (busy, a lost race); on PostgreSQL a unit holds the events table's lock from its start. Taking a
seed changes one row (the chain's count): the seeds themselves are only read, and a chain's are deleted
when the next one is committed (the rolls that took them revealed them in the log). With the ledger's
key (`CHRONICLE_CIPHER_KEY`) the seeds are encrypted as its events are."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from ...domain.errors import Refusal
from ...projections.store import ViewStore

CHAINS = "chronicle_dice_chains"
SEEDS = "chronicle_dice_seeds"
CHAIN_LOCK = 0x64696365  # PostgreSQL advisory lock for making the tables ("dice")


class Taken(NamedTuple):
    number: int  # the seed's index within its chain, from 1
    seed: bytes
    head: str  # the chain's commitment


class SeedChains:
    """One ledger's chains (one object per open ledger: `seed_chains`)."""

    def __init__(self, views: ViewStore, cipher: Any):
        self.views, self.cipher = views, cipher
        self._made = False  # the tables exist, committed (seen by a unit that did not make them)

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """The open unit's transaction (a command's), without a savepoint of its own: on PostgreSQL a roll's
        round trips are its statements alone, and anything failing fails the command. Outside a unit, a
        transaction of its own."""
        inside = bool(getattr(getattr(self.views, "datastore", None), "in_unit", False))
        with self.views.transaction(commit=not inside) as cursor:
            yield cursor

    def ready(self, cursor: Any, made_here: bool) -> bool:
        """Make the tables unless they exist; whether this call made them (the caller's unit then has:
        until it commits, another unit must look again)."""
        if self._made:
            return False
        views = self.views
        if views.postgres:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (CHAIN_LOCK,))
        if self._exists(cursor):
            self._made = not made_here
            return False
        blob = "BYTEA" if views.postgres else "BLOB"
        clustered = "" if views.postgres else " WITHOUT ROWID"  # SQLite: one b-tree a table, one page a roll
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {CHAINS} (campaign TEXT NOT NULL, number INTEGER NOT NULL, head TEXT NOT"
            f" NULL, length INTEGER NOT NULL, used INTEGER NOT NULL, PRIMARY KEY (campaign, number)){clustered}"
        )
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {SEEDS} (campaign TEXT NOT NULL, number INTEGER NOT NULL,"
            f" idx INTEGER NOT NULL, seed {blob} NOT NULL, PRIMARY KEY (campaign, number, idx)){clustered}"
        )
        return True

    def take(self, cursor: Any, campaign: UUID) -> Taken | None:
        """The next seed of the campaign's newest chain, taken (one statement: a roll's one round trip);
        None when it has none left (or none at all)."""
        row = self.views.execute(
            cursor,
            f"UPDATE {CHAINS} SET used = used + 1 WHERE campaign = ? AND used < length"
            f" AND number = (SELECT MAX(number) FROM {CHAINS} WHERE campaign = ?) RETURNING used, head,"
            f" (SELECT seed FROM {SEEDS} s WHERE s.campaign = {CHAINS}.campaign AND s.number = {CHAINS}.number"
            f" AND s.idx = {CHAINS}.used)",
            (str(campaign), str(campaign)),
        ).fetchone()
        if row is None:
            return None
        index, head, stored = row.values() if isinstance(row, dict) else row
        if stored is None:
            raise Refusal(
                f"seed {index} of the ledger's dice chain is missing from its storage (removed by hand?):"
                " the ledger cannot roll fair dice until it commits to a new chain"
            )
        stored = bytes(stored)
        return Taken(index, self.cipher.decrypt(stored) if self.cipher else stored, head)

    def add(self, cursor: Any, campaign: UUID, seeds: list[bytes]) -> None:
        """A new chain for the campaign, its seeds s_0 .. s_L (s_0, the head, is public and not kept)."""
        views = self.views
        row = views.execute(
            cursor, f"SELECT COALESCE(MAX(number), 0) FROM {CHAINS} WHERE campaign = ?", (str(campaign),)
        ).fetchone()
        number = 1 + (next(iter(row.values())) if isinstance(row, dict) else row[0])
        length = len(seeds) - 1
        inserted = views.execute(
            cursor,
            f"INSERT INTO {CHAINS} (campaign, number, head, length, used) VALUES (?, ?, ?, ?, 0)"
            " ON CONFLICT DO NOTHING RETURNING number",
            (str(campaign), number, seeds[0].hex(), length),
        ).fetchone()
        if inserted is None:  # another writer's chain came first: this one decides again
            raise IntegrityError("another writer committed to a chain of dice seeds first")
        views.execute(cursor, f"DELETE FROM {SEEDS} WHERE campaign = ?", (str(campaign),))  # the last chain's
        seal = self.cipher.encrypt if self.cipher else bytes
        rows = [(str(campaign), number, index, seal(seeds[index])) for index in range(1, length + 1)]
        views.executemany(cursor, f"INSERT INTO {SEEDS} (campaign, number, idx, seed) VALUES (?, ?, ?, ?)", rows)

    def _exists(self, cursor: Any) -> bool:
        if self.views.postgres:
            found = self.views.execute(cursor, "SELECT to_regclass(?) IS NOT NULL AS found", (SEEDS,)).fetchone()
            return bool(found["found"] if isinstance(found, dict) else found[0])
        found = self.views.execute(cursor, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (SEEDS,))
        return found.fetchone() is not None


def seed_chains(app: Any) -> SeedChains:
    """The ledger's seed chains (one object per open ledger: it remembers that its tables exist)."""
    found = app.__dict__.get("_chronicle_seed_chains")
    if found is None:
        found = app.__dict__["_chronicle_seed_chains"] = SeedChains(app.views, app.mapper.cipher)
    return found
