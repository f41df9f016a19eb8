"""Dice notation: a grammar parsed into the immutable tree of `dice_tree.py` (after avrae/d20, never evaluated as code).

Grammar (docs/scripting.md, Dice), spaces ignored, case-insensitive:

    expression := product (("+" | "-") product)*
    product    := signed (("*" | "/") signed)*
    signed     := ["-" | "+"] atom
    atom       := dice | number | "(" expression ")"
    dice       := [number] "d" (number | "%") [("kh" | "kl" | "dh" | "dl") number]

`dX` is `1dX`, `d%` is `d100`; 1-1,000 dice and 1-1,000 faces a term. `/` rounds down (floor, toward
negative infinity: the rule texts' "Rounding: always down (floor) unless stated"). Every integer, and every
value the expression can take, lies within 64 bits; a divisor that can be 0 is refused. The tree knows
its bounds, so each check is made once, on parsing, and no roll can fail afterwards.
"""

from __future__ import annotations

import re

from .dice_tree import BinaryOp, DiceTerm, Negative, Node, Number, walk
from .errors import BadInput
from .model import INT64_MAX, INT64_MIN

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_TERMS = 100
MAX_LENGTH = 200
EXAMPLES = "expected e.g. 2d6+1, d20, d%, 4d6kh3, (1d8+3)*2, -1d4 (1-1000 dice of 1-1000 faces a term)"


_DICE = re.compile(r"(\d*)d(%|\d+)(?:(kh|kl|dh|dl)(\d+))?", re.ASCII)
_NUMBER = re.compile(r"\d+", re.ASCII)
_RANGE = re.compile(r"\+?(\d+)-(\d+)([+-]\d+)?", re.ASCII)  # `2-8`, `2-8+2`: how a book writes a range
_COMMON_DICE = (4, 6, 8, 10, 12, 20, 100)


def parse_tree(notation: str) -> Node:
    """The tree of `notation`; anything outside the grammar or the limits is `BadInput`."""
    text = "".join(notation.split()).lower()
    if not text or len(text) > MAX_LENGTH:
        raise BadInput(f"bad dice notation {notation[:MAX_LENGTH]!r}: {EXAMPLES}")
    parser = _Parser(notation, text)
    tree = parser.expression()
    if parser.pos != len(text):
        parser.stuck()
    if sum(isinstance(n, (Number, DiceTerm)) for n in walk(tree)) > MAX_TERMS:
        raise BadInput(f"bad dice notation {notation!r}: at most {MAX_TERMS} terms")
    for node in walk(tree):
        _check_values(node, notation)
    _refuse_a_range(notation, text)
    return tree


class _Parser:
    """Recursive descent over the text, one rule a method (the grammar in the module's docstring)."""

    def __init__(self, notation: str, text: str):
        self.notation, self.text, self.pos = notation, text, 0

    def stuck(self) -> None:
        rest = self.text[self.pos :] or "the end"
        raise BadInput(f"bad dice notation {self.notation!r} (stuck at {rest!r}): {EXAMPLES}")

    def _peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expression(self) -> Node:
        node = self.product()
        while self._peek() in ("+", "-"):
            op = self.text[self.pos]
            self.pos += 1
            node = BinaryOp(node, op, self.product())
        return node

    def product(self) -> Node:
        node = self.signed()
        while self._peek() in ("*", "/"):
            op = self.text[self.pos]
            self.pos += 1
            node = BinaryOp(node, op, self.signed())
        return node

    def signed(self) -> Node:
        sign = self._peek()
        if sign in ("+", "-"):
            self.pos += 1
        node = self.atom()
        return Negative(node) if sign == "-" else node

    def atom(self) -> Node:
        if self._peek() == "(":
            self.pos += 1
            node = self.expression()
            if self._peek() != ")":
                if self.pos == len(self.text):
                    raise BadInput(f"bad dice notation {self.notation!r}: a '(' is never closed")
                self.stuck()
            self.pos += 1
            return node
        if match := _DICE.match(self.text, self.pos):
            self.pos = match.end()
            count, sides, keep, keep_n = match.groups()
            return DiceTerm(
                self._int(count or "1"), 100 if sides == "%" else self._int(sides), keep, self._int(keep_n or "0")
            )
        if match := _NUMBER.match(self.text, self.pos):
            self.pos = match.end()
            return Number(self._int(match.group()))
        self.stuck()
        raise AssertionError  # stuck() always raises

    def _int(self, digits: str) -> int:
        value = int(digits)  # at most MAX_LENGTH digits: well within int()'s limit
        if value > INT64_MAX:
            shown = digits if len(digits) <= 24 else f"{digits[:24]}..."
            raise BadInput(f"bad dice notation {self.notation!r}: {shown} is beyond the 64-bit limit ({INT64_MAX:,})")
        return value


def _check_values(node: Node, notation: str) -> None:
    if isinstance(node, DiceTerm):
        if not 1 <= node.count <= MAX_DICE:
            raise BadInput(f"bad dice notation {notation!r}: 1 to {MAX_DICE} dice a term")
        if not 1 <= node.sides <= MAX_SIDES:
            raise BadInput(f"bad dice notation {notation!r}: 1 to {MAX_SIDES} faces a die")
        if node.keep and not 0 <= node.keep_n <= node.count:
            raise BadInput(f"bad dice notation {notation!r}: cannot keep or drop {node.keep_n} of {node.count} dice")
    if isinstance(node, BinaryOp) and node.op == "/":
        low, high = node.right.bounds
        if low == high == 0:
            raise BadInput(f"bad dice notation {notation!r}: it divides by 0")
        if low <= 0 <= high:
            raise BadInput(f"bad dice notation {notation!r}: the divisor {node.right} can be 0")
    low, high = node.bounds
    if low < INT64_MIN or high > INT64_MAX:
        raise BadInput(
            f"bad dice notation {notation!r}: {node} can reach beyond the 64-bit limit ({INT64_MIN:,} to {INT64_MAX:,})"
        )


def _refuse_a_range(notation: str, text: str) -> None:
    """`2-8` is how a book writes "2 to 8", not 2 minus 8: constants alone that read like a range
    are refused, with the dice that roll that range. A higher number first (`8-2`) is plain subtraction."""
    match = _RANGE.fullmatch(text)
    if not match:
        return
    low, high, extra = int(match.group(1)), int(match.group(2)), match.group(3) or ""
    if low >= high:
        return
    raise BadInput(
        f"bad dice notation {notation!r}: it reads like the range {low} to {high};"
        f" write the dice that roll it, e.g. {range_dice(low, high)}{extra}"
    )


def range_dice(low: int, high: int) -> str:
    """Dice notation rolling `low` to `high`: N dice of a common size plus a constant where they fit
    (2-8 is 2d4, 4-10 is 2d4+2, 3-18 is 3d6), else one die plus a constant (2-7 is 1d6+1)."""
    spread = high - low
    for count in range(min(low, MAX_DICE), 0, -1):
        if spread % count == 0 and spread // count + 1 in _COMMON_DICE:
            return _with_constant(f"{count}d{spread // count + 1}", low - count)
    return _with_constant(f"1d{spread + 1}", low - 1)


def _with_constant(dice: str, constant: int) -> str:
    return f"{dice}{constant:+d}" if constant else dice
