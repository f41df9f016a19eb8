"""Reading a campaign's participants."""

from __future__ import annotations

from typing import Any

from ..session import Session


def participant_list(session: Session) -> list[dict[str, Any]]:
    """`{"name", "role", "plays", "key", "since"}` per participant, `since` the log position from which
    their role and key hold."""
    campaign = session.campaign
    index = session.app.index
    index.catch_up()
    return [
        {
            "name": p.name,
            "role": p.role,
            "plays": list(p.plays),
            "key": p.key,
            "since": index.position_of(campaign.id, p.since),
        }
        for p in campaign.participants.values()
    ]
