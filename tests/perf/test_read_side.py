"""The read side is one-way: read models import only the domain, and fold only the events they know."""

from __future__ import annotations

import ast
import uuid
from pathlib import Path

import pytest
from eventsourcing.persistence import StoredEvent

import chronicle.projections
from chronicle.domain import systems
from chronicle.domain.amendments import Amended
from chronicle.domain.campaign import CampaignStarted, RulingChanged, WinterBegan
from chronicle.domain.character import Character, CharacterRegistered
from chronicle.domain.rolls import DiceRolled
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.store.mapper import UnknownTopic
from chronicle.projections.kinds import Kind, kind_of

PROJECTIONS = Path(chronicle.projections.__file__).parent
FORBIDDEN = ("chronicle.ledger", "chronicle.cli")


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports, relative imports spelled from the package root (`..ledger` is
    `chronicle.ledger`), wherever the import statement sits (function bodies included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append(node.module or "")
            else:
                base = ["chronicle", "projections"][: max(0, 2 - node.level + 1)]
                found.append(".".join(base + ([node.module] if node.module else [])))
                found += [".".join(base + [alias.name]) for alias in node.names if not node.module]
    return found


def test_the_read_models_import_nothing_of_the_ledger_or_the_cli():
    files = sorted(PROJECTIONS.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        wrong = [name for name in imported_modules(path) if name.startswith(FORBIDDEN)]
        assert wrong == [], f"{path.name} imports {wrong}"


def test_the_import_check_sees_relative_and_lazy_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from ..ledger.mapper import x\ndef f():\n    from .. import cli\n    import chronicle.ledger.store.chronicle\n"
    )
    assert [n for n in imported_modules(sample) if n.startswith(FORBIDDEN)] == [
        "chronicle.ledger.mapper",
        "chronicle.cli",
        "chronicle.ledger.store.chronicle",
    ]


def test_every_event_the_domain_defines_is_one_the_read_models_know():
    events = [CampaignStarted, RulingChanged, WinterBegan, CharacterRegistered, DiceRolled, Amended]
    for name in systems.PACKAGES:
        events += list(systems.get(name).EVENTS)
    assert len(events) > 20
    assert all(kind_of(cls) is not Kind.UNKNOWN for cls in events)
    assert kind_of(Character) is Kind.UNKNOWN  # an aggregate is not an event
    assert kind_of(StoredEvent) is Kind.UNKNOWN


def append_foreign_event(db: str) -> int:
    """An event whose topic names a class that is not one of chronicle's events (as a newer
    chronicle, or another program, might leave in the table); returns its position."""
    app = open_ledger(db)
    try:
        first = app.recorder.select_notifications(start=1, limit=1)[0]
        app.recorder.insert_events(
            [
                StoredEvent(
                    originator_id=uuid.uuid4(),
                    originator_version=1,
                    topic="chronicle.domain.character:Character",
                    state=first.state,
                )
            ]
        )
        position = app.recorder.max_notification_id()
        assert position is not None
        return position
    finally:
        app.close()


@pytest.mark.parametrize("view", ["index", "characters"])
def test_a_read_model_refuses_an_event_it_does_not_know_and_folds_nothing(run, view):
    run("campaign", "new", "Vale", "--system", "adnd2e")
    run("character", "add", "Bob", "--stat", "hp=20")
    app = open_ledger(run.db)
    model = getattr(app, view)
    model.catch_up()
    before = model.position()
    app.close()
    foreign = append_foreign_event(run.db)
    app = open_ledger(run.db)
    model = getattr(app, view)
    with pytest.raises(UnknownTopic) as refused:  # the mapper resolves no topic but chronicle's own events
        model.catch_up()
    assert refused.value.topic == "chronicle.domain.character:Character" and foreign > before
    assert model.position() == before
    app.close()


def test_a_command_reading_an_unknown_event_says_so_in_one_line(run):
    run("campaign", "new", "Vale", "--system", "adnd2e")
    run("character", "add", "Bob", "--stat", "hp=20")
    foreign = append_foreign_event(run.db)
    shown = run("--campaign", "Vale", "log")
    assert shown.exit_code == 2
    assert "holds an event naming 'chronicle.domain.character:Character', which is not one of" in shown.stderr
    assert foreign > 0
    assert "Traceback" not in shown.stderr and len(shown.stderr.strip().splitlines()) == 1
