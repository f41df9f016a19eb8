"""The 64-bit limit every integer entering the ledger is held to (issues 22, 25 and 34), apart from the
models so that checking the whole numbers typed on the command line (cli/options.py) needs no pydantic."""

from __future__ import annotations

import re

from .errors import BadInput

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT64_LIMIT = f"the 64-bit limit ({INT64_MIN:,} to {INT64_MAX:,})"

_WHOLE = re.compile(r"\s*[+-]?0*(\d+)\s*")


def typed_within_int64(text: object, what: str) -> None:
    """Bad input naming WHAT when TEXT, as a person typed it (`hp=N`), is a whole number beyond 64 bits:
    a longer one's digits are counted, never converted (Python refuses to convert 4,300 digits or more).
    Text that is no whole number is left to the caller, which says what it expects."""
    written = _WHOLE.fullmatch(str(text))
    if written is not None and (
        len(written.group(1)) > len(str(INT64_MAX)) or not INT64_MIN <= int(str(text)) <= INT64_MAX
    ):
        raise BadInput(f"{what} is beyond {INT64_LIMIT}")
