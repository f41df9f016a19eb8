"""The three rule systems, by ledger name. Each is a package under `domain/` exposing:

`NAME`, `Rulings`, `Sheet`, `Condition` (pydantic models; `Condition()` is a fresh character),
`parse_sheet(stats, kind)`, `view(sheet, condition) -> dict` (the contract's JSON: at least
"condition"), `summary(sheet, condition) -> str` (one line for `character list`) and `EVENTS`
(its `Resolution` subclasses).
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

from .errors import BadInput

PACKAGES = {"potestas": "potestas", "adnd2e": "adnd2e", "pendragon-pass": "pendragon"}


@functools.cache  # folding a character asks for its system at every step; import_module takes ~30 us
def get(name: str) -> ModuleType:
    try:
        package = PACKAGES[name]
    except KeyError:
        raise BadInput(f"unknown system {name!r}: choose from {', '.join(PACKAGES)}") from None
    return importlib.import_module(f"{__package__}.{package}")
