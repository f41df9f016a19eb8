"""What the AD&D 2E commands share: the system check, recording on one character, the hp line."""

from __future__ import annotations

from typing import Any

from ...domain.errors import BadInput
from ..actions import Later, describe


def adnd2e_character(session: Any, name: str, command: str) -> Any:
    """The character NAME of an adnd2e campaign (`mug` and `grab` are not dispatched by system)."""
    system = session.campaign.system
    if system != "adnd2e":
        raise BadInput(f"{command} is an adnd2e command; campaign {session.campaign.name!r} is {system}")
    return session.character(name)


def resolve_on(session: Any, name: str, event_class: type, given: Any, table: dict[str, Any] | None = None) -> Later:
    """Record `event_class` on NAME; its result document (`event`, `version`, outcome, `condition`), built when read."""
    character = adnd2e_character(session, name, event_class.__name__)
    return describe(character, session.resolve(character, event_class, given, table))


def hp_line(condition: dict[str, Any]) -> str:
    line = (f"{condition['hp']}/{condition['max_hp']} hp ({condition['real_damage']} real, "
            f"{condition['temporary_damage']} temporary)")
    return f"{line}, {', '.join(condition['states'])}" if condition["states"] else line
