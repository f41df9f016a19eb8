"""Canonical JSON (RFC 8785, the JSON Canonicalization Scheme): the bytes a signature covers.

Objects' keys sorted by their UTF-16 code units, no whitespace, strings escaped as ECMAScript's
JSON.stringify escapes them (only `"`, `\\` and control characters; everything else as its UTF-8),
numbers as ECMAScript prints a double. A value is a dict with string keys, a list (or tuple), a str,
an int, a float, a bool or None; anything else is refused, as are NaN and the infinities.

Integers: RFC 8785 reads every number as an IEEE 754 double. Within +-2**53 that is exact, and an
int is written with its digits, as ECMAScript writes the double. Beyond it a double cannot hold
the number, and RFC 8785 would round it, so that one signature would fit two documents: chronicle
writes such an int with all its digits instead (the only place it departs from the RFC; chronicle's
documents hold 64-bit integers).
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import orjson

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def canonical(value: Any) -> bytes:
    """The RFC 8785 serialization of `value`, as UTF-8."""
    if _plain(value, 0):
        try:
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # a lone surrogate: the general writer says so
            pass
    return written(value)


def written(value: Any) -> bytes:
    """`canonical`, by the general writer (every value, floats included)."""
    parts: list[str] = []
    _write(value, parts)
    try:
        return "".join(parts).encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string holds a lone surrogate: it has no UTF-8 form") from None


_SCALARS = (str, int, bool, type(None))  # (exactly these types, so no subclass with its own JSON form)
_INT64 = 2**63


def _plain(value: Any, depth: int) -> bool:
    """Whether orjson writes VALUE exactly as RFC 8785 does: objects with ASCII keys only (sorted alike as
    code points and as UTF-16), no float (orjson writes `1.0`, ECMAScript `1`), every int within 64 bits.
    Strings need no care: orjson escapes `"`, `\\` and control characters exactly as ECMAScript does."""
    kind = type(value)
    if kind is dict:
        return depth < 8 and all(
            type(key) is str and key.isascii() and _plain(item, depth + 1) for key, item in value.items()
        )
    if kind is list or kind is tuple:
        return depth < 8 and all(_plain(item, depth + 1) for item in value)
    if kind is int:
        return -_INT64 <= value < _INT64
    return kind in _SCALARS


def _write(value: Any, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, int):
        out.append(str(int(value)))
    elif isinstance(value, float):
        out.append(number(value))
    elif isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise TypeError(f"an object key must be a string, not {type(key).__name__}")
        out.append("{")
        for i, key in enumerate(sorted(value, key=_utf16)):
            if i:
                out.append(",")
            out.append(_string(key))
            out.append(":")
            _write(value[key], out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    else:
        raise TypeError(f"{type(value).__name__} has no JSON form")


def _utf16(key: str) -> bytes:
    """The key as its UTF-16 code units, big-endian: bytes that sort as the code units do."""
    return key.encode("utf-16-be", "surrogatepass")


def _string(text: str) -> str:
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'  # the common case: nothing to escape
    out = ['"']
    for char in text:
        escaped = _ESCAPES.get(char)
        if escaped is not None:
            out.append(escaped)
        elif char < " ":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def number(value: float) -> str:
    """A double as ECMAScript's Number.prototype.toString writes it (ECMA-262, Number::toString):
    the shortest digits that read back as the same double, in plain notation for exponents
    from -7 to 20, else in exponent notation (`1e+21`, `1.5e-7`)."""
    if not math.isfinite(value):
        raise ValueError(f"{value} has no JSON form")
    if value == 0:
        return "0"  # and -0
    sign = "-" if value < 0 else ""
    digits, exponent = _shortest(abs(value))
    k = len(digits)
    n = exponent + k  # the value is 0.DIGITS * 10**n
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    power = n - 1
    mark = "+" if power >= 0 else "-"
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{mantissa}e{mark}{abs(power)}"


def _shortest(value: float) -> tuple[str, int]:
    """The shortest decimal digits (no trailing zeros) and exponent that read back as `value`:
    Python's repr chooses them as ECMAScript does (the closest of the shortest candidates)."""
    sign, digits, exponent = Decimal(repr(value)).as_tuple()
    text = "".join(map(str, digits))
    stripped = text.rstrip("0")
    assert isinstance(exponent, int)  # finite
    return stripped, exponent + len(text) - len(stripped)
