"""Where a ledger lives, as the front doors name it: a `--db` that must exist, a target with its password
hidden, whether it is PostgreSQL, and the file a failed first write leaves behind (docs/design.md, Packages).
Light on purpose: every command's start-up imports it."""

from __future__ import annotations

from ..store.fresh import absent, discard_unwritten
from ..store.targets import is_postgres, must_exist, redact

__all__ = ["absent", "discard_unwritten", "is_postgres", "must_exist", "redact"]
