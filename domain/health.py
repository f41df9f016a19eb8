"""One health language for every system: what is left, of how much, and how bad it is (a level a page
colours). Hit points where the system counts them (AD&D 2E, PenDragon Pass); the wound ladder's rungs
where it counts wounds (Potestas: healthy, wounded, disabled, dying, dead). Pure: it reads the condition
as `character show --json` gives it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LEVELS = ("fit", "hurt", "badly hurt", "critical", "dead")
LADDER = ("wounded", "disabled", "dying", "dead")  # Potestas's rungs below healthy


def health(condition: Mapping[str, Any]) -> dict[str, Any]:
    """`{"left", "of", "level"}`: hit points left of the most, or rungs of the wound ladder left of 4."""
    states = set(condition.get("states", ()))
    if "hp" in condition and "max_hp" in condition:
        left, most = int(condition["hp"]), int(condition["max_hp"])
        if "dead" in states:
            level = "dead"
        elif states & {"dying", "unconscious"} or left <= 0:
            level = "critical"
        elif left * 2 <= most:
            level = "badly hurt"
        elif left < most:
            level = "hurt"
        else:
            level = "fit"
        return {"left": left, "of": most, "level": level}
    rung = max((LADDER.index(s) + 1 for s in states if s in LADDER), default=0)
    if rung == 0 and (condition.get("wounds") or condition.get("nonlethal_wounds")):
        rung = 1
    return {"left": len(LADDER) - rung, "of": len(LADDER), "level": LEVELS[rung]}
