"""Issue 38, the trust items: stored topics never import code, what `verify` checks beyond the hash
chains (snapshots, the read models' names, the order sessions promise), and the edges that were an
`internal` error or an unbounded read."""

from __future__ import annotations

import json
import sys

import orjson
import pytest

from chronicle.ledger.storage import is_postgres

from .edges import refused, sql
from .rows import edit

PROBE = "chronicle_topic_probe"  # a module a forged topic names: importing it leaves a file behind


def events_table(db: str) -> tuple[str, str]:
    return ("chronicle_events", "notification_id") if is_postgres(db) else ("stored_events", "rowid")


def snapshots_table(db: str) -> str:
    return "chronicle_snapshots" if is_postgres(db) else "stored_snapshots"


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """A topic naming an importable module outside chronicle, and the file its import would write."""
    marker = tmp_path / "imported"
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / f"{PROBE}.py").write_text(f"open({str(marker)!r}, 'w').close()\nclass Evil: pass\n")
    monkeypatch.syspath_prepend(str(folder))
    sys.modules.pop(PROBE, None)
    yield f"{PROBE}:Evil", marker
    assert not marker.exists() and PROBE not in sys.modules, "a stored topic imported a module"


def campaign(run) -> None:
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert run("character", "add", "Bruno", "--stat", "hp=30").exit_code == 0
    assert run("session", "start", "one").exit_code == 0
    assert run("roll", "2d6", "--for", "Bruno", "--reason", "first").exit_code == 0
    assert run("roll", "2d6", "--for", "Bruno", "--reason", "second").exit_code == 0


def set_topic(db: str, position: int, topic: str) -> None:
    table, at = events_table(db)
    sql(db, f"UPDATE {table} SET topic = ? WHERE {at} = ?", (topic, position))


# Medium 6: a stored topic never imports code --------------------------------------------------------


READERS = [
    ("log", "--json"),
    ("recap",),
    ("replay", "--ruling", "death_at=-5"),
    ("report", "Bruno"),
    ("amend", "#5", "--reason", "typo", "--void"),
    ("rebuild",),
    ("character", "show", "Bruno", "--as-of", "#4"),
    ("campaign", "report"),
    ("roll", "1d6", "--for", "Bruno"),
]


def test_an_event_topic_naming_another_module_is_bad_input_everywhere(run, probe):
    campaign(run)
    topic, _ = probe
    set_topic(run.db, 4, topic)
    for command in READERS:
        result = run(*command)
        if result.exit_code:  # (a read from rows alone decodes no event: `campaign report` once caught up)
            refused(result, 2, "not one of chronicle's event classes")
    problems = run("--json", "verify")
    assert problems.exit_code == 1
    assert {"position": 4, "problem": f"names {topic!r}, which is not one of chronicle's events: never read"} in (
        json.loads(problems.stdout)["problems"]
    )


def test_a_creation_naming_another_module_as_its_aggregate_is_never_resolved(run, probe):
    campaign(run)
    topic, _ = probe
    edit(run.db, 2, lambda state: orjson.dumps({**orjson.loads(state), "originator_topic": topic}))
    result = run("--json", "verify")
    assert result.exit_code == 1
    assert {"position": 2, "problem": f"names {topic!r}, which is not one of chronicle's aggregates: never read"} in (
        json.loads(result.stdout)["problems"]
    )
    refused(run("roll", "1d6", "--for", "Bruno"), 2, "not one of chronicle's aggregate classes")


def test_known_topics_are_one_lookup_and_old_names_still_resolve():
    from chronicle.domain.pendragon.events import Checked
    from chronicle.ledger import mapper

    assert mapper.resolved("chronicle.domain.pendragon.checks:Checked", mapper.EVENT) is Checked  # an old topic
    assert mapper.topic_kind("chronicle.domain.character:Character") == mapper.AGGREGATE
    assert mapper.topic_kind("chronicle.ledger.snapshots:CharacterSnapshot") == mapper.SNAPSHOT
    for forged in ("os:system", "chronicle.domain..x:Y", "chronicle.domain.dice:Dice", "chronicle.domain.nothing:X"):
        assert mapper.topic_kind(forged) is None, forged
        with pytest.raises(mapper.UnknownTopic):
            mapper.resolved(forged, mapper.EVENT)
    with pytest.raises(mapper.UnknownTopic):  # an aggregate is not an event
        mapper.resolved("chronicle.domain.character:Character", mapper.EVENT)
