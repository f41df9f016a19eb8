"""The rule systems a ledger knows, each declared once: its name in the ledger, its title as people write
it, and its package (`domain/<package>/` holds its rules, `ledger/application/commands/<package>*.py` its
commands, `cli/systems/<package>*.py` their command lines). Everything else that lists the systems reads
this (light: commands that load no rule system read titles from it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SystemSpec:
    name: str  # as the ledger records it: `campaign new --system NAME`
    title: str  # as its players write it
    package: str


SYSTEMS = (
    SystemSpec("potestas", "Potestas", "potestas"),
    SystemSpec("adnd2e", "AD&D 2E", "adnd2e"),
    SystemSpec("pendragon-pass", "PenDragon Pass", "pendragon"),
)
NAMES = tuple(spec.name for spec in SYSTEMS)
BY_NAME = {spec.name: spec for spec in SYSTEMS}
BY_PACKAGE = {spec.package: spec for spec in SYSTEMS}


def system_title(system: str) -> str:
    spec = BY_NAME.get(system)
    return spec.title if spec is not None else system


def of_package(package: str) -> str:
    """The name of the system whose package is PACKAGE (`pendragon`: `pendragon-pass`)."""
    return BY_PACKAGE[package].name
