"""Canonical JSON (ledger/trust/canonical.py) against RFC 8785's published examples.

`EXAMPLES` are the RFC's test data as its authors publish them (github.com/cyberphone/
json-canonicalization, testdata/input and testdata/outhex): each input as it is written, and the
canonical bytes expected of it, in hexadecimal. `NUMBERS` are RFC 8785 Appendix B: IEEE 754 doubles
(their bits in hexadecimal) and the text each must become.
"""

from __future__ import annotations

import json
import math
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronicle.ledger.trust.canonical import canonical, number, written

EXAMPLES = {
    "arrays": (
        '[\n  56,\n  {\n    "d": true,\n    "10": null,\n    "1": [ ]\n  }\n]\n',
        "5b35362c7b2231223a5b5d2c223130223a6e756c6c2c2264223a747275657d5d",
    ),
    "french": (
        "{\n"
        '  "peach": "This sorting order",\n'
        '  "péché": "is wrong according to French",\n'
        '  "pêche": "but canonicalization MUST",\n'
        '  "sin":   "ignore locale"\n'
        "}\n",
        "7b227065616368223a225468697320736f7274696e67206f72646572222c2270c3a96368c3a9223a2269732077726f6e"
        "67206163636f7264696e6720746f204672656e6368222c2270c3aa636865223a226275742063616e6f6e6963616c697a"
        "6174696f6e204d555354222c2273696e223a2269676e6f7265206c6f63616c65227d",
    ),
    "structures": (
        "{\n"
        '  "1": {"f": {"f": "hi","F": 5} ,"\\n": 56.0},\n'
        '  "10": { },\n'
        '  "": "empty",\n'
        '  "a": { },\n'
        '  "111": [ {"e": "yes","E": "no" } ],\n'
        '  "A": { }\n'
        "}",
        "7b22223a22656d707479222c2231223a7b225c6e223a35362c2266223a7b2246223a352c2266223a226869227d7d2c22"
        "3130223a7b7d2c22313131223a5b7b2245223a226e6f222c2265223a22796573227d5d2c2241223a7b7d2c2261223a7b"
        "7d7d",
    ),
    "unicode": (
        '{\n  "Unnormalized Unicode":"A\\u030a"\n}\n',
        "7b22556e6e6f726d616c697a656420556e69636f6465223a2241cc8a227d",
    ),
    "values": (
        "{\n"
        '  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n'
        '  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n'
        '  "literals": [null, true, false]\n'
        "}",
        "7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c226e756d62657273223a5b33333333333333"
        "33332e333333333333332c31652b33302c342e352c302e3030322c31652d32375d2c22737472696e67223a22e282ac24"
        "5c75303030665c6e4127425c225c5c5c5c5c222f227d",
    ),
    "weird": (
        "{\n"
        '  "\\u20ac": "Euro Sign",\n'
        '  "\\r": "Carriage Return",\n'
        '  "\\u000a": "Newline",\n'
        '  "1": "One",\n'
        '  "\\u0080": "Control\\u007f",\n'
        '  "\\ud83d\\ude02": "Smiley",\n'
        '  "\\u00f6": "Latin Small Letter O With Diaeresis",\n'
        '  "\\ufb33": "Hebrew Letter Dalet With Dagesh",\n'
        '  "</script>": "Browser Challenge"\n'
        "}\n",
        "7b225c6e223a224e65776c696e65222c225c72223a2243617272696167652052657475726e222c2231223a224f6e6522"
        "2c223c2f7363726970743e223a2242726f77736572204368616c6c656e6765222c22c280223a22436f6e74726f6c7f22"
        "2c22c3b6223a224c6174696e20536d616c6c204c6574746572204f205769746820446961657265736973222c22e282ac"
        "223a224575726f205369676e222c22f09f9882223a22536d696c6579222c22efacb3223a22486562726577204c657474"
        "65722044616c6574205769746820446167657368227d",
    ),
}

NUMBERS = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_published_examples_canonicalise_to_the_published_bytes(name):
    written, expected = EXAMPLES[name]
    assert canonical(json.loads(written)) == bytes.fromhex(expected)


@pytest.mark.parametrize(("bits", "text"), NUMBERS)
def test_doubles_are_written_as_appendix_b_writes_them(bits, text):
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    assert number(value) == text
    assert canonical([value]) == f"[{text}]".encode()


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_nan_and_the_infinities_have_no_canonical_form(value):
    with pytest.raises(ValueError):
        canonical({"x": value})


def test_keys_sort_by_utf16_code_units_not_by_code_points():
    # U+1F600 is the surrogate pair D83D DE00, which sorts before U+FB33 in UTF-16 (not in code points)
    assert canonical({"\ufb33": 1, "\U0001f600": 2}) == '{"\U0001f600":2,"\ufb33":1}'.encode()


def test_integers_keep_every_digit_even_beyond_a_doubles_reach():
    """Beyond 2**53 RFC 8785 would round an integer to a double (two documents, one signature):
    chronicle's 64-bit integers keep their digits."""
    assert canonical([2**53, 2**63 - 1, -(2**63)]) == b"[9007199254740992,9223372036854775807,-9223372036854775808]"
    assert canonical([2**53 + 1]) != canonical([2**53])
    assert canonical([5, 5.0, True, None]) == b"[5,5,true,null]"


def test_what_json_cannot_hold_is_refused():
    with pytest.raises(TypeError):
        canonical({1: "a number as a key"})
    with pytest.raises(TypeError):
        canonical({"a": object()})
    with pytest.raises(ValueError):
        canonical({"a": "\ud800"})  # a lone surrogate has no UTF-8 form


# Every JSON value without floats, keys of any alphabet: the fast path (orjson, when it applies) and the
# general writer must give the same bytes, and a key outside ASCII must sort by UTF-16 code units.
_texts = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
_plain_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | _texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_texts, inner, max_size=4),
    max_leaves=20,
)


@given(_plain_values)
def test_the_fast_path_writes_what_the_general_writer_writes(value):
    assert canonical(value) == written(value)


def test_the_fast_path_leaves_what_orjson_writes_otherwise_to_the_general_writer():
    assert canonical({"n": 1.0, "m": [2.5]}) == b'{"m":[2.5],"n":1}'  # orjson: 1.0
    assert canonical({"\U0001f600": 1, "\uff61": 2}) == '{"\U0001f600":1,"\uff61":2}'.encode()  # UTF-16 order
    assert canonical({"big": 2**64}) == b'{"big":18446744073709551616}'
    with pytest.raises(ValueError, match="surrogate"):
        canonical({"a": "\ud800"})
