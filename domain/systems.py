"""The rule systems, by ledger name (domain/registry.py), and what each one provides (`RuleSystem`)."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from typing import Any, Protocol, cast, runtime_checkable

from .errors import BadInput
from .events import DomainEvent, Resolution
from .model import Model
from .registry import SYSTEMS


@runtime_checkable  # isinstance() checks that every member is there (tests/domain/test_systems.py)
class RuleSystem(Protocol):
    """What a rule system's package (`domain/potestas/`, `domain/adnd2e/`, `domain/pendragon/`) exports.

    Sheets and conditions are typed `Any` in the functions: each system takes its own `Sheet` and
    `Condition` there, which no shared parameter type can admit (parameters are contravariant)."""

    @property
    def NAME(self) -> str:  # noqa: N802  (the ledger's name of the system: "potestas", "adnd2e", "pendragon-pass")
        ...

    @property
    def Rulings(self) -> type[Model]:  # noqa: N802  (its typed rulings; defaults per docs/rulings.md)
        ...

    @property
    def Sheet(self) -> type[Model]:  # noqa: N802
        ...

    @property
    def Condition(self) -> type[Model]:  # noqa: N802  (`Condition()` is a fresh character)
        ...

    @property
    def SHEET_OPTIONS(self) -> frozenset[str]:  # noqa: N802  (`character add` options: "object", "virtues")
        ...

    @property
    def STATE_WORDS(self) -> Mapping[str, str]:  # noqa: N802  (each of the condition's `states` in words)
        ...

    @property
    def EVENTS(self) -> tuple[type[Resolution], ...]:  # noqa: N802  (its `Resolution` subclasses)
        ...

    def parse_sheet(self, stats: dict[str, str], kind: str = "character") -> Model:
        """The sheet from `character add`'s `--stat KEY=VALUE` strings; a bad key or value is `BadInput`."""
        ...

    def sheet_keys(self) -> list[dict[str, str]]:
        """The sheet keys `character add` takes: `{"key", "for", "meaning"}` each ("for": character or object)."""
        ...

    def view(self, sheet: Any, condition: Any) -> dict[str, Any]:
        """The contract's JSON for `character show`: at least "condition"."""
        ...

    def summary(self, sheet: Any, condition: Any) -> str:
        """One line for `character list`."""
        ...

    def explain(self, event: DomainEvent, name: str) -> str:
        """Sentences for people about one of its events recorded on character `name`."""
        ...

    def sheet_lines(self, sheet: Any, condition: Any) -> list[str]:
        """The character sheet as a player of the system reads it, a line each."""
        ...


# mypy checks each package against the Protocol in domain/systems_checked.py (tests/domain/test_systems.py
# does at run time)

PACKAGES = {spec.name: spec.package for spec in SYSTEMS}  # (domain/registry.py declares them)


@functools.cache  # folding a character asks for its system at every step, and import_module is not free
def get(name: str) -> RuleSystem:
    try:
        package = PACKAGES[name]
    except KeyError:
        raise BadInput(f"unknown system {name!r}: choose from {', '.join(PACKAGES)}") from None
    return cast(RuleSystem, importlib.import_module(f"{__package__}.{package}"))
