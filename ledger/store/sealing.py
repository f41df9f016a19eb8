"""Whether a ledger's events are encrypted is decided once: by its first event.

Every transaction that inserts events first reads the ledger's first event, inside that same
transaction, and refuses to write unless this process can read it: its key (or its lack of one)
is the ledger's. Two processes creating a fresh ledger at once, one with `CHRONICLE_CIPHER_KEY` and
one without, cannot both win: on PostgreSQL the table lock taken before the check serialises them;
on SQLite the second one's read snapshot is stale when it tries to write, which SQLite reports as
busy, and its retry reads the first one's event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...domain.errors import BadInput

ENCRYPTED = "its events are encrypted (or damaged): set CHRONICLE_CIPHER_KEY to the ledger's key"
NOT_THIS_KEY = "its events do not decrypt with CHRONICLE_CIPHER_KEY: a wrong key, or an unencrypted ledger"


def unreadable(encrypting: bool) -> str:
    """Why a ledger whose first event this process cannot decode is refused."""
    return NOT_THIS_KEY if encrypting else ENCRYPTED


class SealedRecorder:
    """The check, for the library's recorders. `decode` (the application's `mapper.decode_state`)
    and `encrypting` are set once the application is made (ledger/store/chronicle.py); until then nothing is
    checked (the library creates its tables)."""

    decode: Callable[[bytes], dict[str, Any]] | None = None
    encrypting = False
    first_event_sql = ""

    def check_sealing(self, cursor: Any) -> None:
        if self.decode is None:
            return
        cursor.execute(self.first_event_sql)
        row = cursor.fetchone()
        if row is None:
            return
        state = row["state"] if isinstance(row, dict) else row[0]
        try:
            self.decode(bytes(state))
        except Exception:  # noqa: BLE001 - any failure to decode: not this process's kind of ledger
            raise BadInput(f"cannot write to this ledger: {unreadable(self.encrypting)}") from None
