"""`replay` without `--fork`: every recorded outcome re-derived under other rulings, writing nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ....domain.errors import BadInput
from ..reply import Reply
from .base import Query, answers, field, required

if TYPE_CHECKING:
    from ..ledger import Ledger


@dataclass(frozen=True, kw_only=True)
class WhatIf(Query):
    """What if: re-derive every recorded outcome (of one character, or of everyone) under other rulings,
    cascading through later state, and show what changes."""

    query: ClassVar[str] = "replay"
    name: str | None = field("The character to replay (else everyone).")
    ruling: tuple[str, ...] = required("The rulings to replay under, KEY=VALUE.")


@answers(WhatIf)
def what_if(ledger: Ledger, asked: WhatIf) -> Reply:
    from ..commands.audit import what_if as replayed

    if not asked.ruling:
        raise BadInput("a replay is under other rulings: give at least one, KEY=VALUE")
    return replayed(ledger.read(), asked.name, list(asked.ruling))
