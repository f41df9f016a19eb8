"""The names an import brings, held to what commands make: ids derived from names (ledger/application/session.py),
names as the ledger keeps them (`normalise_name`), and no name taken twice without regard to case,
in the file or beside the ledger's other campaigns.

A campaign whose id is not its name's, beside a campaign of that name, would be a second row the
read models cannot take; case twins (`alpha` beside `Alpha`) make every later use of the name ambiguous."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NoReturn
from uuid import UUID

from ...domain.campaign import campaign_id
from ...domain.character import character_id
from ...domain.errors import BadInput, Refusal
from ...domain.text import normalise_name, printable
from .importing import Named


def check(names: Iterable[Named], taken: Iterable[str]) -> None:
    """Refuse (nothing imported) the first name, in the file's order, that a command would not have
    given: `taken` are the names of the ledger's other campaigns."""
    others = {name.casefold(): name for name in taken}
    current: dict[UUID, str] = {}  # each character's name at this line of the file
    holder: dict[str, UUID] = {}  # whose name each is, without regard to case
    for number, does, ident, name, campaign in sorted(names, key=lambda named: named[0]):
        _kept(number, name)
        if does == "started":
            if ident != campaign_id(name):
                _refuse(number, f"campaign {printable(name)} does not have the id its name gives")
            if name.casefold() in others:
                raise Refusal(f"campaign {printable(others[name.casefold()])} already exists; nothing was imported")
            continue
        folded = name.casefold()
        if holder.get(folded, ident) != ident:
            _refuse(number, f"the campaign already has a character named {printable(current[holder[folded]])}")
        if does == "registered":
            assert campaign is not None
            if not _derived(ident, campaign, name, current):
                _refuse(number, f"character {printable(name)} does not have the id its name gives")
        elif ident in current:
            del holder[current[ident].casefold()]
        current[ident], holder[folded] = name, ident


def _derived(ident: UUID, campaign: UUID, name: str, registered: dict[UUID, str]) -> bool:
    """Whether `ident` is the id a registration of NAME gets: its name's, else (that id taken by a character
    renamed since) the first of `NAME#2`, `NAME#3`, ... not taken (ledger/application/session.py)."""
    candidate, suffix = character_id(campaign, name), 1
    while candidate != ident:
        if candidate not in registered:
            return False
        suffix += 1
        candidate = character_id(campaign, f"{name}#{suffix}")
    return True


def _kept(number: int, name: str) -> None:
    """The name as the ledger keeps it (a command normalises every name it is given)."""
    try:
        kept = normalise_name(name)
    except BadInput as error:
        _refuse(number, str(error))
    if kept != name:
        _refuse(number, f"the name {printable(name)} is not as chronicle keeps names (it would be {printable(kept)})")


def _refuse(number: int, problem: str) -> NoReturn:
    raise Refusal(f"the file does not verify: line {number}: {problem}; nothing was imported")
