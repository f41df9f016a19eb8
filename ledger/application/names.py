"""Names as people type them: a campaign's or a character's name is found as written, else without
regard to case (`vasana` finds `Vasana`), else it is not found, with the closest name offered. Every
front door matches names this one way (the command line, the table view's addresses, an assistant)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from ...domain.errors import BadInput, NotFound
from ...domain.text import printable

T = TypeVar("T")


def default_author() -> str:
    """Who records when no one is named: the user's name (else, with no user database, "unknown")."""
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # no user database (containers): still record something honest
        return "unknown"


def matching(name: str, named: Mapping[str, T], what: str) -> T:
    """What NAMED holds for the one name matching NAME: as written, else the only one equal to it but
    for case; several such are bad input, none is `NotFound` naming WHAT, with the closest names
    offered (`did you mean 'Vasana'?`)."""
    if name in named:
        return named[name]
    folded = name.casefold()
    exact = [found for known, found in named.items() if known.casefold() == folded]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        raise BadInput(f"several {what}s match {printable(name)} but for case: write it exactly")
    import difflib  # lazily: only a name that is not found needs it

    close = difflib.get_close_matches(folded, [known.casefold() for known in named], n=1, cutoff=0.6)
    close += [known.casefold() for known in named if folded in known.casefold()]  # a part of a longer name
    hint = ""
    if close:
        original = next(known for known in named if known.casefold() == close[0])
        hint = f": did you mean {printable(original)}?"
    raise NotFound(f"no {what} named {printable(name)}{hint}")
