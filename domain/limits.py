"""The 64-bit limit every integer entering the ledger is held to (issues 22 and 25), apart from the
models so that checking command-line text (domain/text.py) needs no pydantic."""

from __future__ import annotations

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT64_LIMIT = f"the 64-bit limit ({INT64_MIN:,} to {INT64_MAX:,})"
