"""A long-running front door (`serve`, `mcp`, the shell) keeps a SQLite ledger's connections up for its
whole run (docs/design.md, Packages)."""

from __future__ import annotations

from ..store.sqlite import staying_up

__all__ = ["staying_up"]
