"""Nonces a signed document brought from outside (a browser, another device): each is accepted once per key,
checked and noted in the transaction of the command it signed, so a captured request replayed later, or
twice at once, records nothing."""

from __future__ import annotations

from typing import Any

from ...domain.errors import BadSignature
from ...projections.store import ViewStore

NONCES = "chronicle_nonces"
NONCE_LOCK = 0x6E6F6E63  # PostgreSQL advisory lock for making the table ("nonc")


class NonceBook:
    def __init__(self, views: ViewStore):
        self.views = views
        self._made = False

    def make(self) -> None:
        if self._made:
            return
        with self.views.transaction() as cursor:
            if self.views.postgres:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (NONCE_LOCK,))
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {NONCES} (key TEXT NOT NULL, nonce TEXT NOT NULL,"
                " PRIMARY KEY (key, nonce))"
            )
        self._made = True

    def spend(self, key: str, nonce: str) -> None:
        """Note NONCE as used by KEY, in the open transaction; one seen before is refused (401)."""
        self.make()
        with self.views.transaction() as cursor:
            if self._seen(cursor, key, nonce):
                raise BadSignature("that nonce was used before: a signed request is accepted once")
            self.views.execute(cursor, f"INSERT INTO {NONCES} (key, nonce) VALUES (?, ?)", (key, nonce))

    def _seen(self, cursor: Any, key: str, nonce: str) -> bool:
        found = self.views.execute(cursor, f"SELECT 1 FROM {NONCES} WHERE key = ? AND nonce = ?", (key, nonce))
        return found.fetchone() is not None


def nonce_book(app: Any) -> NonceBook:
    """The ledger's nonce book (one object per open ledger: it remembers that its table exists)."""
    found = app.__dict__.get("_chronicle_nonces")
    if found is None:
        found = app.__dict__["_chronicle_nonces"] = NonceBook(app.views)
    return found
