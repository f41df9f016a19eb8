"""PenDragon Pass keeps its events in `events.py`, as the other systems do; events recorded when each
class lived in its rule module (`chronicle.domain.pendragon.checks:Checked`) still load and verify."""

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from conftest import Run
from eventsourcing.utils import get_topic, resolve_topic

from chronicle.domain.pendragon import EVENTS, events

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "ledger-v1.db"
OLD = {
    "checks": ["Checked", "ExperienceRolled"],
    "status": ["StatusAwarded", "IncreaseSpent"],
    "oaths": ["OathSworn", "OathFulfilled", "OathBroken", "GeasTaken", "GeasBroken"],
    "feats": ["FeatAttempted"],
    "combat": ["TacticResolved"],
    "injury": ["Injured", "FirstAidGiven", "MagicallyHealed"],
    "recovery": ["Rested"],
    "winter": ["WinterResolved"],
}


def test_every_event_class_lives_in_events_and_new_events_name_it_there():
    assert all(cls.__module__ == "chronicle.domain.pendragon.events" for cls in EVENTS)
    assert get_topic(events.Checked) == "chronicle.domain.pendragon.events:Checked"
    assert sorted(c for classes in OLD.values() for c in classes) == sorted(
        cls.__name__ for cls in EVENTS if cls.__name__ != "ChirurgeryPerformed"
    )  # new since


def test_each_old_topic_resolves_to_the_moved_class():
    for module, names in OLD.items():
        for name in names:
            assert resolve_topic(f"chronicle.domain.pendragon.{module}:{name}") is getattr(events, name)


def test_an_old_topic_resolves_in_a_process_that_has_not_imported_the_system():
    """The library looks a topic up before importing its module: the old module hands the class on."""
    script = (
        "from eventsourcing.utils import resolve_topic\n"
        "cls = resolve_topic('chronicle.domain.pendragon.winter:WinterResolved')\n"
        "print(cls.__module__, cls.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["chronicle.domain.pendragon.events", "WinterResolved"]


def test_an_old_module_still_refuses_a_name_it_never_held():
    from chronicle.domain.pendragon import checks

    try:
        checks.Injured  # noqa: B018
    except AttributeError as error:
        assert "Injured" in str(error)
    else:
        raise AssertionError("checks never held Injured")


def test_the_v1_fixture_names_the_old_topics_and_still_shows_and_verifies(tmp_path):
    copy = tmp_path / "ledger-v1.db"
    shutil.copyfile(FIXTURE, copy)
    with sqlite3.connect(copy) as connection:
        topics = {row[0] for row in connection.execute("select topic from stored_events")}
    assert {
        "chronicle.domain.pendragon.injury:Injured",
        "chronicle.domain.pendragon.status:StatusAwarded",
        "chronicle.domain.pendragon.oaths:OathSworn",
    } <= topics
    run = Run(str(copy))
    shown = run.json("--campaign", "Glorantha", "character", "show", "Vasana")
    assert shown["condition"]["hp"] == 15 + 13 - 8
    assert shown["status"]["total"] == 20  # the troll
    assert [o["text"] for o in shown["oaths"]] == ["guard the temple"]
    assert run.json("--campaign", "Glorantha", "verify")["ok"] is True
    # a new event beside the old ones is stored under the new topic and verifies with them
    run.json("--campaign", "Glorantha", "oath", "swear", "Vasana", "keep the ford")
    with sqlite3.connect(copy) as connection:
        in_order = [row[0] for row in connection.execute("select topic from stored_events order by rowid")]
    assert in_order[-1] == "chronicle.domain.pendragon.events:OathSworn"
    assert run.json("--campaign", "Glorantha", "verify")["ok"] is True
