"""Dice notation: a grammar, an immutable tree, and the tree's text (after avrae/d20, never evaluated as code).

Grammar (CONTRACT.md "Dice" and "Long campaigns"), spaces ignored, case-insensitive:

    expression := product (("+" | "-") product)*
    product    := signed (("*" | "/") signed)*
    signed     := ["-" | "+"] atom
    atom       := dice | number | "(" expression ")"
    dice       := [number] "d" (number | "%") [("kh" | "kl" | "dh" | "dl") number]

`dX` is `1dX`, `d%` is `d100`; 1-1,000 dice and 1-1,000 faces a term. `/` rounds down (floor, toward
negative infinity: RULINGS.md "Rounding: always down (floor) unless stated"). Every integer, and every
value the expression can take, lies within 64 bits; a divisor that can be 0 is refused. The tree knows
its bounds, so each check is made once, on parsing, and no roll can fail afterwards.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .errors import BadInput
from .model import INT64_MAX, INT64_MIN

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_TERMS = 100
MAX_LENGTH = 200
EXAMPLES = "expected e.g. 2d6+1, d20, d%, 4d6kh3, (1d8+3)*2, -1d4 (1-1000 dice of 1-1000 faces a term)"


def _floor_div(a: int, b: int) -> int:
    return a // b  # Python's // is floor division: -7/2 is -4


# the fixed operator table: symbol -> (precedence, function); nothing else is ever applied
OPERATORS: dict[str, tuple[int, Callable[[int, int], int]]] = {
    "+": (1, operator.add),
    "-": (1, operator.sub),
    "*": (2, operator.mul),
    "/": (2, _floor_div),
}
ATOM = 3  # the precedence of numbers, dice and signed operands: they never need parentheses


@dataclass(frozen=True)
class Number:
    value: int

    def __str__(self) -> str:
        return str(self.value)

    @property
    def bounds(self) -> tuple[int, int]:
        return self.value, self.value


@dataclass(frozen=True)
class DiceTerm:
    count: int
    sides: int
    keep: str | None = None  # kh, kl, dh or dl
    keep_n: int = 0

    def __str__(self) -> str:
        suffix = f"{self.keep}{self.keep_n}" if self.keep else ""
        return f"{self.count}d{self.sides}{suffix}"

    @property
    def counted(self) -> int:
        """How many of the dice count toward the total."""
        if self.keep is None:
            return self.count
        return self.keep_n if self.keep in ("kh", "kl") else self.count - self.keep_n

    @property
    def bounds(self) -> tuple[int, int]:
        return self.counted, self.counted * self.sides

    def kept(self, faces: list[int]) -> list[bool]:
        """Which of the faces (in rolled order) count toward the total."""
        order = sorted(range(len(faces)), key=lambda i: (faces[i], i), reverse=self.keep in ("kh", "dl"))
        chosen = set(order[: max(self.counted, 0)])
        return [i in chosen for i in range(len(faces))]


@dataclass(frozen=True)
class Negative:
    operand: Node

    def __str__(self) -> str:
        simple = isinstance(self.operand, (Number, DiceTerm))
        return f"-{self.operand}" if simple else f"-({self.operand})"  # -1d4, -(1d6+1), -(-2)

    @property
    def bounds(self) -> tuple[int, int]:
        low, high = self.operand.bounds
        return -high, -low


@dataclass(frozen=True)
class BinaryOp:
    left: Node
    op: str
    right: Node

    def __str__(self) -> str:
        precedence = OPERATORS[self.op][0]
        left, right = str(self.left), str(self.right)
        if _precedence(self.left) < precedence:
            left = f"({left})"
        if _precedence(self.right) <= precedence or isinstance(self.right, Negative):
            right = f"({right})"  # 1-(2-3), 2/(3*4), 1-(-2): as written, so the text parses back to this tree
        return f"{left}{self.op}{right}"

    @property
    def bounds(self) -> tuple[int, int]:
        (a, b), (c, d) = self.left.bounds, self.right.bounds
        apply = OPERATORS[self.op][1]
        corners = [apply(x, y) for x in (a, b) for y in (c, d)]  # every operator here is monotonic in each side
        return min(corners), max(corners)


Node = Number | DiceTerm | Negative | BinaryOp


def _precedence(node: Node) -> int:
    return OPERATORS[node.op][0] if isinstance(node, BinaryOp) else ATOM


def walk(node: Node) -> Iterator[Node]:
    """Every node, left to right, parents before children: the dice come out in the order they are rolled."""
    yield node
    if isinstance(node, Negative):
        yield from walk(node.operand)
    elif isinstance(node, BinaryOp):
        yield from walk(node.left)
        yield from walk(node.right)


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
    """`2-8` is how a book writes "2 to 8", not 2 minus 8 (issue 22): constants alone that read like a range
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
