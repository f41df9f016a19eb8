"""An open ledger as the table view holds it for its whole run, its password hidden in what it says, and
the appends it waits on for its live pages (docs/design.md, Packages)."""

from __future__ import annotations

from ..store.appends import appends, notify_appends
from ..store.chronicle import Chronicle, hide_password, open_ledger

__all__ = ["Chronicle", "appends", "hide_password", "notify_appends", "open_ledger"]
