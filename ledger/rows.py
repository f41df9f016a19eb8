"""`character show` of a character's current state, in its read-model row alone.

Reading one row needs no domain model: this module imports none (start-up is most of a `show`).
The ids come from `domain.ids`, which needs only the standard library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..domain.ids import campaign_id, character_id

if TYPE_CHECKING:
    from .app import Chronicle


def current_view(app: Chronicle, campaign: str, name: str) -> dict[str, Any] | None:
    """The row's view of NAME in CAMPAIGN (caught up first), or None when there is no such row
    (the caller then takes the full path, which reports an unknown campaign or character)."""
    return app.characters.show(character_id(campaign_id(campaign), name))
