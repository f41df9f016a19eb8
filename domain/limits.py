"""The 64-bit limit every integer entering the ledger is held to, apart from the
models so that checking the whole numbers typed on the command line (cli/options.py) needs no pydantic."""

from __future__ import annotations

import re

from .errors import BadInput

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT64_LIMIT = f"the 64-bit limit ({INT64_MIN:,} to {INT64_MAX:,})"

_WHOLE = re.compile(r"\s*([+-]?)0*(\d+)\s*")


def typed_within_int64(text: object, what: str) -> int | None:
    """The whole number TEXT writes as a person typed it (`hp=N`), or None for text that is no whole
    number (left to the caller, which says what it expects). One beyond 64 bits is bad input naming
    WHAT: its digits are counted, never converted (Python refuses to convert 4,300 digits or more)."""
    written = _WHOLE.fullmatch(str(text))
    if written is None:
        return None
    sign, digits = written.groups()  # (leading zeros left out: Python counts them against its limit too)
    number = int(sign + digits) if len(digits) <= len(str(INT64_MAX)) else None
    if number is None or not INT64_MIN <= number <= INT64_MAX:
        raise BadInput(f"{what} is beyond {INT64_LIMIT}")
    return number
