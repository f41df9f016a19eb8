"""The immutable tree a dice expression parses into (`notation.py`), its bounds, and its text: `str(tree)`
parses back to the same tree."""

import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass


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
    operand: "Node"

    def __str__(self) -> str:
        simple = isinstance(self.operand, (Number, DiceTerm))
        return f"-{self.operand}" if simple else f"-({self.operand})"  # -1d4, -(1d6+1), -(-2)

    @property
    def bounds(self) -> tuple[int, int]:
        low, high = self.operand.bounds
        return -high, -low


@dataclass(frozen=True)
class BinaryOp:
    left: "Node"
    op: str
    right: "Node"

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
