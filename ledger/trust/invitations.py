"""Invitations to a campaign's table, as the web server looks them up: by the hash of a token, which
campaign, whom, until when, and whether it was taken up. Rows are written in the transaction of the
command that invites or joins (like ledger/trust/nonces.py), beside the read models; the log's
`ParticipantInvited` and `ParticipantSet` events are what decides and what `verify` checks, this table
only finds the campaign a token belongs to.

Also the address `serve --writes` listens on, so `participant invite` prints a URL that reaches it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ...projections.store import ViewStore

INVITATIONS = "chronicle_invitations"
ADDRESS = "chronicle_table_address"
INVITATIONS_LOCK = 0x696E7669  # PostgreSQL advisory lock for making the tables ("invi")


@dataclass(frozen=True)
class Invitation:
    invitation: str  # the token's hash
    campaign: str  # the campaign's id
    name: str
    role: str
    plays: tuple[str, ...]
    expires: datetime
    used: bool


class InvitationBook:
    def __init__(self, views: ViewStore):
        self.views = views

    def make(self, cursor: Any) -> None:
        """The tables, unless they are there (made in the open transaction: rolled back with it)."""
        if self.views.postgres:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (INVITATIONS_LOCK,))
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {INVITATIONS} (invitation TEXT PRIMARY KEY, campaign TEXT NOT NULL,"
            " name TEXT NOT NULL, role TEXT NOT NULL, plays TEXT NOT NULL, expires TEXT NOT NULL,"
            " used INTEGER NOT NULL)"
        )
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {ADDRESS} (one INTEGER PRIMARY KEY, address TEXT NOT NULL)")

    def open(self, invitation: Invitation) -> None:
        """Note a new invitation, in the open transaction (the invite's)."""
        with self.views.transaction() as cursor:
            self.make(cursor)
            self.views.execute(
                cursor,
                f"INSERT INTO {INVITATIONS} (invitation, campaign, name, role, plays, expires, used)"
                " VALUES (?, ?, ?, ?, ?, ?, 0)",
                (
                    invitation.invitation,
                    invitation.campaign,
                    invitation.name,
                    invitation.role,
                    json.dumps(list(invitation.plays)),
                    invitation.expires.isoformat(),
                ),
            )

    def use(self, invitation: str) -> None:
        """Note that the invitation was taken up, in the open transaction (the join's)."""
        with self.views.transaction() as cursor:
            self.make(cursor)
            self.views.execute(cursor, f"UPDATE {INVITATIONS} SET used = 1 WHERE invitation = ?", (invitation,))

    def find(self, invitation: str) -> Invitation | None:
        """The invitation whose token has this hash, if one was noted here."""
        with self.views.transaction() as cursor:
            if not self._exists(cursor, INVITATIONS):
                return None
            row = self.views.execute(
                cursor,
                f"SELECT invitation, campaign, name, role, plays, expires, used FROM {INVITATIONS}"
                " WHERE invitation = ?",
                (invitation,),
            ).fetchone()
        if row is None:
            return None
        hashed, campaign, name, role, plays, expires, used = _values(row)
        return Invitation(
            hashed, campaign, name, role, tuple(json.loads(plays)), datetime.fromisoformat(expires), bool(used)
        )

    def note_address(self, address: str) -> None:
        """Where `serve --writes` listens (the URL base an invitation's link starts with)."""
        with self.views.transaction() as cursor:
            self.make(cursor)
            cursor.execute(f"DELETE FROM {ADDRESS}")
            self.views.execute(cursor, f"INSERT INTO {ADDRESS} (one, address) VALUES (1, ?)", (address,))

    def address(self) -> str | None:
        """The address the last `serve --writes` of this ledger noted, if any."""
        with self.views.transaction() as cursor:
            if not self._exists(cursor, ADDRESS):
                return None
            row = self.views.execute(cursor, f"SELECT address FROM {ADDRESS}").fetchone()
        return None if row is None else str(_values(row)[0])

    def _exists(self, cursor: Any, table: str) -> bool:
        if self.views.postgres:
            found = self.views.execute(cursor, "SELECT to_regclass(?)", (table,)).fetchone()
            return found is not None and _values(found)[0] is not None
        found = self.views.execute(
            cursor, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        return found is not None


def _values(row: Any) -> tuple[Any, ...]:
    """PostgreSQL rows come as dicts (the library's row factory), SQLite rows as sequences."""
    return tuple(row.values()) if isinstance(row, dict) else tuple(row)


def invitation_book(app: Any) -> InvitationBook:
    return InvitationBook(app.views)
