"""Each rule system's package against `systems.RuleSystem`, for mypy (tests/domain/test_systems.py checks it
at run time). Nothing imports this module: the packages import systems.py, and this is the one place that
imports them all for the check, so no circle closes through systems.py."""

from __future__ import annotations

from . import adnd2e, pendragon, potestas
from .systems import RuleSystem

COMPLETE: tuple[RuleSystem, ...] = (potestas, adnd2e, pendragon)
