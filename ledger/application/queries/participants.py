"""`participant list`: who records in the campaign, with which role and key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..reply import Reply
from ..text import aligned
from .base import Query, answers

if TYPE_CHECKING:
    from ..ledger import Ledger

NONE_YET = "No participants yet: this campaign was started before chronicle signed what it records."


@dataclass(frozen=True, kw_only=True)
class ParticipantList(Query):
    """Every participant: role, the characters a player plays, key, and since which log position."""

    query: ClassVar[str] = "participant list"


@answers(ParticipantList)
def listed(ledger: Ledger, asked: ParticipantList) -> Reply:
    from ..views.participants import participant_list

    rows = participant_list(ledger.read())

    def text() -> str:
        if not rows:
            return NONE_YET
        return aligned(
            ("name", "role", "plays", "key", "since"),
            [(r["name"], r["role"], ", ".join(r["plays"]) or "-", r["key"], f"#{r['since']}") for r in rows],
        )

    return Reply(lambda: {"participants": rows}, text)
