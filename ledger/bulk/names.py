"""The names an import brings, held to what commands make: characters' ids derived from their campaign's id and
their names (ledger/application/session.py; a campaign's id is drawn at random and kept as the file has it),
names as the ledger keeps them (`normalise_name`), and no name taken twice without regard to case, in the file
or beside the ledger's other campaigns: case twins (`alpha` beside `Alpha`) make every later use of a name
ambiguous."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NoReturn
from uuid import UUID

from ...domain.errors import BadInput, Refusal
from ...domain.ids import derives_id
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
            if name.casefold() in others:
                raise Refusal(f"campaign {printable(others[name.casefold()])} already exists; nothing was imported")
            continue
        folded = name.casefold()
        if holder.get(folded, ident) != ident:
            _refuse(number, f"the campaign already has a character named {printable(current[holder[folded]])}")
        if does == "registered":
            assert campaign is not None
            if not derives_id(ident, campaign, name, current):
                _refuse(number, f"character {printable(name)} does not have the id its name gives")
        elif ident in current:
            del holder[current[ident].casefold()]
        current[ident], holder[folded] = name, ident


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
