"""The rule systems' names as people write them (light: read by commands that load no rule system)."""

from __future__ import annotations

SYSTEM_TITLES = {"potestas": "Potestas", "adnd2e": "AD&D 2E", "pendragon-pass": "PenDragon Pass"}


def system_title(system: str) -> str:
    return SYSTEM_TITLES.get(system, system)
