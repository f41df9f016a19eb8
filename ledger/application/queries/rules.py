"""`rules sheet SYSTEM`: the sheet keys a rule system knows, each with its meaning (what `character add
--stat KEY=VALUE` and a `--sheet` file take). A pure read of the rules: no ledger is opened for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from ....domain.registry import NAMES
from ..reply import Reply
from .base import Query, answers, required

if TYPE_CHECKING:
    from ..ledger import Ledger

    SystemName = str
else:  # one of the systems' names, as a Literal: the document's schema lists them
    SystemName = Literal[NAMES]


@dataclass(frozen=True, kw_only=True)
class SheetKeys(Query):
    """The sheet keys a rule system knows, each with its meaning and whether it is an object's."""

    query: ClassVar[str] = "rules sheet"
    system: SystemName = required("The rule system whose sheet keys are listed.")


@answers(SheetKeys)
def sheet_keys(ledger: Ledger, asked: SheetKeys) -> Reply:
    from ....domain import systems

    keys = systems.get(asked.system).sheet_keys()

    def text() -> str:
        lines = [f"The sheet keys of {asked.system}:"]
        lines += [f"  {k['key']}{' (an object)' if k['for'] == 'object' else ''}: {k['meaning']}" for k in keys]
        return "\n".join(lines)

    return Reply(lambda: {"system": asked.system, "keys": keys}, text)
