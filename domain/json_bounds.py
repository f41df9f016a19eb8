"""Every integer in a JSON document the ledger stores, or a read model keeps, fits 64 bits (signed).

orjson writes integers up to 2**64 - 1: a total between 2**63 and that (damage added up) would be
stored, then refused by the databases' 64-bit integers and by other readers."""

from __future__ import annotations

import re
from collections.abc import Mapping

import orjson

from .errors import BadInput
from .limits import INT64_LIMIT, INT64_MAX, INT64_MIN

# a number of 19 digits or more where JSON puts numbers (after ':', ',' or '['): 2**63 has 19 digits
_LONG_NUMBER = re.compile(rb"[:,\[](-?\d{19,})")


def check_int64(data: bytes, of: str = "") -> None:
    """Bad input naming the first integer in the JSON `data` beyond 64 bits (nearly every document is
    passed by one scan); `of` says whose it is ("'Bruno'").

    Only a run of 19 digits or more whose value is beyond 64 bits sends the document to the full check
    (the dice's 63-bit seeds have 19 digits in most events, and fit); a run that fits is either an
    integer that fits or the integer part of a float, which the full check would pass too."""
    for digits in _LONG_NUMBER.findall(data):
        if len(digits) > 20 or not INT64_MIN <= int(digits) <= INT64_MAX:  # (no int() of 5,000 digits)
            check_document(orjson.loads(data), of)
            return


def check_document(data: object, of: str = "") -> None:
    """`check_int64` of a document as JSON holds it (mappings, lists): "real damage of 'Bruno' is beyond
    the 64-bit limit (...): nothing was written"."""
    where = beyond(data)
    if where is not None:
        what = where[-1].replace("_", " ") if where else "a number"
        raise BadInput(f"{what}{' of ' + of if of else ''} is beyond {INT64_LIMIT}: nothing was written")


def beyond(data: object) -> list[str] | None:
    """The path (keys) to the first integer in `data` beyond 64 bits; None when every integer fits."""
    if isinstance(data, int) and not isinstance(data, bool):
        return None if INT64_MIN <= data <= INT64_MAX else []
    items = data.items() if isinstance(data, Mapping) else enumerate(data) if isinstance(data, (list, tuple)) else ()
    for key, value in items:
        found = beyond(value)
        if found is not None:
            return [str(key), *found] if isinstance(key, str) else found
    return None
