"""Text that may enter the ledger: no NUL, no control characters, no lone surrogates.

One PostgreSQL text column refuses a NUL byte, and a read model that cannot be written stops every
read of the database; a terminal escape sequence stored in a name would be replayed on every screen
that shows it. So every stored event's JSON is checked once, as bytes (`check_json`), and names are
normalised (`normalise_name`) so that "Alice" and "Alice " are one name.
"""

from __future__ import annotations

import re
import unicodedata

from .errors import BadInput

# In orjson's output a C0 control is `\u00XX` or one of `\b \f \r` (tab and newline, `\t` `\n`, are
# allowed in free text); DEL and the C1 controls (CSI is U+009B) are raw UTF-8. An escaped backslash
# (`\\`) is matched as a pair and passed over: `\\u0000` is the six characters `\u0000`, typed on purpose.
_BAD_JSON = re.compile(rb"\\(?:\\|u00[01][0-9a-f]|[bfr])|\x7f|\xc2[\x80-\x9f]")
_BAD_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_BAD_NAME = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")


def check_json(data: bytes) -> None:
    """Refuse JSON (as orjson writes it) holding a string with a control character other than tab
    and newline. Lone surrogates never get here: orjson refuses to encode them (see `encode_error`)."""
    if b"\\" not in data and b"\x7f" not in data and b"\xc2" not in data:  # nearly every event: one scan each
        return
    for found in _BAD_JSON.finditer(data):
        if found.group() != b"\\\\":
            raise BadInput(f"text holds a control character ({_describe(found.group())}): not stored")


def check_text(text: str, what: str = "text") -> str:
    """`text` if it may be stored: no NUL, control character (but tab and newline) or lone surrogate."""
    found = _BAD_TEXT.search(text)
    if found is not None:
        raise BadInput(f"{what} holds {_character(found.group())}: not stored")
    return text


def normalise_name(text: str, what: str = "name") -> str:
    """A name as the ledger keeps and looks it up: Unicode NFC, without surrounding white space, with
    no control character, line break or lone surrogate, and not empty."""
    found = _BAD_NAME.search(text)
    if found is not None:
        raise BadInput(f"{what} {printable(text)} holds {_character(found.group())}")
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise BadInput(f"{what} is empty")
    return name


def printable(text: str) -> str:
    """`text` quoted for a message: control characters, lone surrogates and line breaks escaped, so a
    message never sends a terminal escape sequence (repr's rules, which escape exactly those)."""
    return repr(text)


def check_arguments(args: list[str], what: str = "argument") -> None:
    """Refuse, where command-line arguments enter, what no later step could store or use: bytes that
    are not UTF-8 (decoded with `surrogateescape` into lone surrogates, which no JSON and no database
    text can hold) and a NUL. `what` names the arguments in a message (`$CHRONICLE_BY` for a setting's
    value). A number's 64-bit limit is not checked here: an argument is a number only where it is read
    as one (a whole-number option, a sheet's value, a position), and each of those holds it; free text
    made of digits (`note 99999999999999999999`) is text."""
    for arg in args:
        if _SURROGATE.search(arg):
            raise BadInput(f"{what} {_named(arg)} is not valid UTF-8")
        if "\x00" in arg:  # no shell can pass one; a file name holding one is refused by every system call
            raise BadInput(f"{what} {_named(arg)} holds a NUL character")


def _named(arg: str) -> str:
    """An argument as a message names it: quoted and shortened; a URL not shown (it may hold a password)."""
    if "://" in arg:
        return "(a URL, not shown: it may hold a password)"
    return printable(arg if len(arg) <= 80 else arg[:80] + "...")


def safe_line(text: str) -> str:
    """A message as one line that sends no terminal control sequence: every control character (line
    breaks too) and lone surrogate shown as its escape."""
    return _BAD_NAME.sub(lambda found: repr(found.group())[1:-1], text)


def first_line(problem: BaseException) -> str:
    """The first line of what PROBLEM says (its class's name when it says nothing): a failure in one line."""
    text = str(problem).strip()
    return text.splitlines()[0] if text else type(problem).__name__


def encode_error(error: Exception) -> BadInput:
    """orjson's refusal of a lone surrogate (an argument that was not UTF-8) as bad input."""
    return BadInput(f"text is not valid Unicode ({str(error).split(':')[-1].strip() or error}): not stored")


def _character(char: str) -> str:
    if "\ud800" <= char <= "\udfff":
        return "a byte that is not UTF-8 (or a lone surrogate)"
    if char == "\x00":
        return "a NUL character"
    return f"the control character U+{ord(char):04X}"


def _describe(escape: bytes) -> str:
    text = escape.lstrip(b"\\").decode("utf-8", "replace")
    if text.startswith("u00"):
        return "NUL" if text == "u0000" else f"U+{text[1:].upper()}"
    return {"b": "backspace", "f": "form feed", "r": "carriage return"}.get(text, f"U+{ord(text):04X}")
