"""Field types of command documents that mean the same in every command: the table's dice, a d20,
`KEY=VALUE` pairs. Each takes the command line's text form too, so a Click option's value and a JSON
document's value become the same model."""

from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from ....domain.errors import BadInput
from ....domain.limits import typed_within_int64
from ....domain.model import Int64
from ....domain.text import printable


def whole_numbers(text: str, what: str) -> list[int]:
    """`"3,5"` (the command line's form of the table's dice) as `[3, 5]`, each within 64 bits: a longer
    number's digits are counted, never converted. Else bad input naming WHAT (`the table's dice`)."""
    found = []
    for part in text.split(","):
        number = typed_within_int64(part, f"{what}: {printable(part.strip()[:40])}")
        if number is None:
            raise BadInput(f"{what} are comma-separated whole numbers, got {text[:40]!r}")
        found.append(number)
    return found


def _faces(value: Any) -> Any:
    """`"3,5"` (the command line's form) is `[3, 5]`; a list stays a list."""
    return whole_numbers(value, "the table's dice") if isinstance(value, str) else value


def _d20(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and not 1 <= value <= 20:
        raise BadInput(f"a d20 shows 1 to 20, not {value}")
    return value


def _not_negative(value: int) -> int:
    # `Field(ge=0)` beside `Int64` is not applied (Int64's schema is its own): this is the check
    if value < 0:
        raise PydanticCustomError("not_negative", "must be 0 or more")
    return value


def _pairs(value: Any) -> Any:
    """`KEY=VALUE` strings, each checked for its `=` (a tuple from a repeatable option is a list)."""
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, list):
        for item in value:
            if isinstance(item, str) and (not item.partition("=")[1] or not item.partition("=")[0].strip()):
                raise BadInput(f"expected KEY=VALUE, got {item[:60]!r}")
    return value


Faces = Annotated[list[Int64], BeforeValidator(_faces), Field(description="The table's faces, in rolled order.")]
D20 = Annotated[
    Int64,
    BeforeValidator(_d20),
    Field(description="The table's d20 (1 to 20).", json_schema_extra={"minimum": 1, "maximum": 20}),
]
# a count the rules never take below zero (damage, hours, feet): the schema says so, and the model checks it
Count = Annotated[Int64, AfterValidator(_not_negative), Field(json_schema_extra={"minimum": 0})]
Pairs = Annotated[list[str], BeforeValidator(_pairs), Field(description="KEY=VALUE strings.")]


def pairs(values: list[str] | None) -> dict[str, str]:
    """`KEY=VALUE` strings as a mapping (each already checked by `Pairs`)."""
    result: dict[str, str] = {}
    for item in values or ():
        key, _, value = item.partition("=")
        result[key.strip()] = value.strip()
    return result


def one_length(hours: int | None, minutes: int | None) -> None:
    """A rest lasts --hours H or --minutes M: exactly one of them."""
    if (hours is None) == (minutes is None):
        raise BadInput("give exactly one of --hours H or --minutes M")


def rest_length(
    hours: int | None, minutes: int | None, days: int | None = None, weeks: int | None = None
) -> tuple[int | None, int | None]:
    """A rest's (hours, minutes) from exactly one of --hours, --minutes, --days (24 hours) or --weeks (168)."""
    given = [value for value in (hours, minutes, days, weeks) if value is not None]
    if len(given) != 1:
        raise BadInput("give the rest's length as exactly one of --hours H, --minutes M, --days D or --weeks W")
    if any(value < 0 for value in given):
        raise BadInput("a rest cannot last a negative time")
    if days is not None:
        hours = days * 24
    elif weeks is not None:
        hours = weeks * 24 * 7
    if hours is not None and hours >= 2**63:
        raise BadInput(f"a rest of {hours} hours is longer than the ledger counts (below 2^63 hours)")
    return hours, minutes


def d20_table(value: int | None) -> list[int] | None:
    """A table's d20 as a dice-table entry."""
    return None if value is None else [value]


__all__ = [
    "Count",
    "D20",
    "Faces",
    "Int64",
    "Pairs",
    "d20_table",
    "one_length",
    "pairs",
    "rest_length",
    "whole_numbers",
]
