"""Every rule system's package provides what `systems.RuleSystem` says a system provides."""

import importlib
from types import ModuleType

import pytest

from chronicle.domain import systems
from chronicle.domain.errors import BadInput
from chronicle.domain.events import Resolution
from chronicle.domain.model import Model

NAMES = sorted(systems.PACKAGES)


@pytest.mark.parametrize("name", NAMES)
def test_each_system_is_found_by_its_ledger_name_and_knows_it(name):
    assert systems.get(name).NAME == name


@pytest.mark.parametrize("name", NAMES)
def test_each_system_has_its_models_and_its_events(name):
    rules = systems.get(name)
    for model in (rules.Rulings, rules.Sheet, rules.Condition):
        assert isinstance(model, type) and issubclass(model, Model)
    assert rules.EVENTS and all(issubclass(event, Resolution) for event in rules.EVENTS)
    assert rules.Rulings().model_dump()  # every ruling has its default


@pytest.mark.parametrize("name", NAMES)
def test_a_fresh_character_can_be_viewed_and_summed_up(name):
    rules = systems.get(name)
    sheet, condition = rules.parse_sheet({}, "character"), rules.Condition()
    assert "condition" in rules.view(sheet, condition)
    line = rules.summary(sheet, condition)
    assert isinstance(line, str) and line and "\n" not in line


@pytest.mark.parametrize("name", NAMES)
def test_each_system_explains_its_events_and_shows_its_sheet(name):
    rules = systems.get(name)
    assert callable(rules.explain) and callable(rules.sheet_lines)
    lines = rules.sheet_lines(rules.parse_sheet({}, "character"), rules.Condition())
    assert lines and all(isinstance(line, str) and line for line in lines)
    assert isinstance(rules, systems.RuleSystem)


def test_an_unknown_system_is_bad_input_naming_the_choices():
    with pytest.raises(BadInput, match="potestas, adnd2e, pendragon-pass"):
        systems.get("gurps")


# each part of a system in the module of the same name in every package
SHAPE = {
    "Sheet": "sheet",
    "parse_sheet": "sheet",
    "Condition": "condition",
    "view": "condition",
    "summary": "condition",
    "Rulings": "rulings",
    "EVENTS": "events",
    "explain": "explain",
    "sheet_lines": "sheet_text",
}


@pytest.mark.parametrize("name", NAMES)
def test_every_system_keeps_each_part_in_the_module_of_the_same_name(name):
    rules = systems.get(name)
    assert isinstance(rules, ModuleType)
    package = rules.__name__
    for member, module in SHAPE.items():
        assert importlib.import_module(f"{package}.{module}")
        if member != "EVENTS":
            assert getattr(rules, member).__module__ == f"{package}.{module}", member
    assert all(event.__module__ == f"{package}.events" for event in rules.EVENTS)


def test_the_systems_are_declared_once_and_everything_that_lists_them_reads_it():
    """domain/registry.py names each system once: its package in domain/ is a rule system of that name,
    and its commands' and command lines' modules are named for that package."""
    from pathlib import Path

    from chronicle.domain import registry
    from chronicle.ledger.application import commands
    from chronicle.ledger.application.commands import table

    root = Path(__file__).resolve().parents[2]
    assert list(systems.PACKAGES) == list(registry.NAMES)
    assert {path.parent.name for path in (root / "domain").glob("*/sheet.py")} == {s.package for s in registry.SYSTEMS}
    for spec in registry.SYSTEMS:
        assert systems.get(spec.name).NAME == spec.name and registry.system_title(spec.name) == spec.title
        assert (root / "cli" / "systems" / f"{spec.package}.py").exists()
        assert any(target.startswith(spec.package) for found in commands.CATALOGUE.values() for target in found)
    assert table.CampaignNew.model_json_schema()["properties"]["system"]["enum"] == list(registry.NAMES)
