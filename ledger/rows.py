"""`character show` of a character's current state, in its read-model row alone.

Reading one row needs no domain model: this module imports none (start-up is most of a `show`).
The ids are derived as `domain.campaign.campaign_id` and `domain.character.character_id` derive them.
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, uuid5


def current_view(app: Any, campaign: str, name: str) -> dict[str, Any] | None:
    """The row's view of NAME in CAMPAIGN (caught up first), or None when there is no such row
    (the caller then takes the full path, which reports an unknown campaign or character)."""
    campaign_id = uuid5(NAMESPACE_URL, f"chronicle:campaign:{campaign}")
    return app.characters.show(uuid5(campaign_id, f"character:{name}"))
