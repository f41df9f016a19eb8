"""The error family every layer raises; the CLI maps each to an exit status in one place."""

from collections.abc import Mapping
from typing import Any


class ChronicleError(Exception):
    """Base of every error a user may see. `exit_code` follows Click: 2 bad input, 1 refusal."""

    exit_code = 2
    code = "error"


class BadInput(ChronicleError):
    """The request cannot be understood: unknown name, malformed value, out-of-range roll."""

    code = "bad_input"


class NotFound(BadInput):
    """A name or reference the campaign does not have (the contract makes it bad input)."""

    code = "not_found"


class OfTheCharacter(ChronicleError):
    """An error of the rules about the character whose sheet and condition they were given. The rules know
    no names, so it says "the character" or "this sheet"; where the character is known, the ledger raises
    `of(name)` instead: the same error, naming them (messages name the character)."""

    def of(self, name: str) -> ChronicleError:
        raise NotImplementedError


class NotOnSheet(NotFound, OfTheCharacter):
    """A name a character's sheet has no value for. A sheet knows no character's name, so the rules say
    "this sheet"; where the character is known, `of(whose)` says whose sheet lacks what, with the
    nearest name it has: "Bruno's sheet has no skill 'swrd': did you mean 'sword'?"."""

    def __init__(self, message: str, lacking: str, hint: str = ""):
        super().__init__(message)
        self.lacking, self.hint = lacking, hint

    def __reduce__(self) -> tuple[type["NotOnSheet"], tuple[str, str, str]]:  # (an error a worker process pickles)
        return type(self), (str(self), self.lacking, self.hint)

    def of(self, whose: str) -> NotFound:
        possessive = f"{whose}'" if whose.endswith("s") else f"{whose}'s"  # as the log's sentences write it
        return NotFound(f"{possessive} sheet has no {self.lacking}{self.hint}")


class Refusal(ChronicleError):
    """The request is understood, but the rules (or the ledger's invariants) refuse it."""

    exit_code = 1
    code = "refused"


class CharacterRefused(Refusal, OfTheCharacter):
    """A refusal whose sentence starts with the character: `subject` ("the character", "the target") and
    the `rest` (" is dead: Chirurgery cannot help"); `of("Vasana")` says "Vasana is dead: ..."."""

    def __init__(self, rest: str, subject: str = "the character"):
        super().__init__(f"{subject}{rest}")
        self.rest, self.subject = rest, subject

    def __reduce__(self) -> tuple[type["CharacterRefused"], tuple[str, str]]:  # (an error a worker pickles)
        return type(self), (self.rest, self.subject)

    def of(self, name: str) -> ChronicleError:
        return Refusal(f"{name}{self.rest}")


class Conflict(Refusal):
    """Another writer kept winning the race for the same aggregate."""

    code = "conflict"


class Forbidden(Refusal):
    """The rules allow it, but not to this participant (a player acting for another's character)."""

    code = "forbidden"


class BadSignature(Refusal):
    """A signature that does not verify, a key that is no participant's, or a nonce seen before."""

    code = "bad_signature"


class DamagedLog(Refusal):
    """The log no longer holds what was recorded (an event removed, moved or rewritten behind chronicle's back):
    nothing more is decided on it until it is restored (`verify` names what changed)."""

    code = "damaged_log"


def in_words(problem: Mapping[str, Any]) -> str:
    """What a value lacked, in words, for one of a validation's problems: never the library's own message
    ("Input should be a valid integer, unable to parse string as an integer")."""
    kind, context = problem.get("type", ""), problem.get("ctx") or {}
    if "url" not in problem and problem.get("msg"):  # the project's own error (a custom type): its own words
        return str(problem["msg"]).removeprefix("Value error, ")
    if kind in ("int_parsing", "int_type", "int_from_float", "int_parsing_size"):
        return "must be a whole number" + (" (below 2^63)" if kind == "int_parsing_size" else "")
    if kind in ("float_parsing", "float_type", "decimal_parsing"):
        return "must be a number"
    if kind in ("bool_parsing", "bool_type"):
        return "must be yes or no (true or false, 1 or 0)"
    if kind in ("literal_error", "enum"):
        expected = str(context.get("expected", "")).replace("'", "")
        return f"must be {expected}" if expected else "is not one of the values it takes"
    bounds = {
        "greater_than_equal": ("at least", "ge"),
        "greater_than": ("more than", "gt"),
        "less_than_equal": ("at most", "le"),
        "less_than": ("less than", "lt"),
    }
    if kind in bounds:
        said, key = bounds[kind]
        return f"must be {said} {context.get(key)}"
    if kind in ("too_short", "too_long"):
        limit = context.get("min_length" if kind == "too_short" else "max_length")
        return f"must have {'at least' if kind == 'too_short' else 'at most'} {limit}"
    if kind in ("string_type", "string_too_short", "string_too_long"):
        return (
            "must be text" if kind == "string_type" else "is too short" if kind == "string_too_short" else "is too long"
        )
    if kind in ("list_type", "tuple_type"):
        return "must be a list"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "must be an object of keys"
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a key it takes"
    if kind in ("value_error", "assertion_error"):
        return str(problem.get("msg", "")).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return "is not a value it takes"
