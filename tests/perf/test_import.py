"""Import checks a file in shares of its aggregates, side by side, and writes exactly what a single
process would: the same log, or the same refusal with nothing written, on both databases."""

from __future__ import annotations

import pytest
from conftest import Run, fresh_postgres_database
from reliability.processes import stored_log

from chronicle.ledger.store.targets import is_postgres

SCRIPT = """\
character add Bob --stat hp=20
character add Knight --stat hp=40 --stat level=5
character add Ann --stat hp=12
injure Bob --damage 7 --mode sap --knockout-roll 80
injure Knight --damage 5 --mode lethal
roll 3d6 --for Ann
rest Bob --hours 8
injure Ann --damage 4 --mode armed-nonlethal
injure Bob --damage 25 --mode lethal
roll d20 --for Knight
"""


def fresh(run: Run, tmp_path, name: str) -> Run:
    """An empty ledger on the same storage as `run`."""
    if is_postgres(run.db):
        return Run(fresh_postgres_database(run.db.rsplit("/", 1)[0] + "/postgres"))
    return Run(str(tmp_path / f"{name}.db"))


@pytest.fixture
def exported(run, tmp_path):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    assert run("batch", "-", input=SCRIPT).exit_code == 0
    run("amend", "#5", "--void", "--reason", "wrong target")
    run("amend", "#9", "--set", "damage=3", "--reason", "misread the die")
    path = tmp_path / "greyhawk.jsonl"
    path.write_bytes(run("export").stdout_bytes)
    return path


def events_in(exported: bytes) -> int:
    """The events of an export: every line but its closing one (the count and digest)."""
    return sum(1 for line in exported.splitlines() if not line.startswith(b'{"closing"'))


@pytest.mark.parametrize("workers", ["2", "3"])
def test_an_import_checked_side_by_side_writes_what_one_process_writes(run, tmp_path, exported, workers):
    alone, side_by_side = fresh(run, tmp_path, "alone"), fresh(run, tmp_path, "side")
    lines = events_in(exported.read_bytes())
    assert alone.json("import", str(exported), "--workers", "1") == {"events": lines}
    assert side_by_side.json("import", str(exported), "--workers", workers) == {"events": lines}
    assert stored_log(side_by_side.db) == stored_log(alone.db)
    assert side_by_side("export").stdout_bytes == run("export").stdout_bytes
    assert side_by_side.json("verify")["ok"] is True


def test_every_worker_count_refuses_a_file_with_the_same_first_problem(run, tmp_path, exported):
    lines = exported.read_bytes().splitlines(keepends=True)
    lines[5] = lines[5].replace(b'"damage":5', b'"damage":6')  # Knight's injury, edited
    lines[6] = lines[6].replace(b'"total":', b'"total":1')  # Ann's roll, edited
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(b"".join(lines))
    broken = tmp_path / "broken.jsonl"  # and a line further on that is no event at all
    broken.write_bytes(b"".join(lines[:10] + [b"{not json\n"] + lines[10:]))
    target = fresh(run, tmp_path, "target")
    for path, status, first in (
        (tampered, 1, "line 6: content does not match its hash"),
        (broken, 2, "line 11: not an exported event"),
    ):
        answers = {workers: target("--json", "import", str(path), "--workers", workers) for workers in ("1", "2", "3")}
        assert {(a.exit_code, a.stderr) for a in answers.values()} == {(status, answers["1"].stderr)}
        assert first in answers["1"].stderr
        assert target("campaign", "show").exit_code == 2  # nothing was written


def test_an_import_into_postgresql_leaves_statistics_for_the_planner(postgres_server, tmp_path):
    import psycopg

    source, target = Run(str(tmp_path / "source.db")), Run(fresh_postgres_database(postgres_server))
    source("campaign", "new", "Greyhawk", "--system", "adnd2e")
    assert source("batch", "-", input=SCRIPT).exit_code == 0
    exported = tmp_path / "greyhawk.jsonl"
    exported.write_bytes(source("export").stdout_bytes)
    assert target.json("import", str(exported))["events"] > 0
    with psycopg.connect(target.db) as connection:
        analyzed = connection.execute(
            "SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'chronicle_events'"
        ).fetchone()
    assert analyzed is not None and analyzed[0] is not None  # set by ANALYZE itself, not by autovacuum


CHECK_TOPICS = """\
import json, sys
from chronicle.ledger.trust.verify import is_aggregate_topic, is_event_topic

before = set(sys.modules)
known = [
    is_event_topic("chronicle.domain.adnd2e.events:Injured"),
    is_aggregate_topic("chronicle.domain.character:Character"),
]
loaded = sorted(m for m in set(sys.modules) - before if m.startswith("chronicle.domain."))
others = ("chronicle.domain.nosuch:Event", "chronicle.domain.adnd2e.events:Injured.nothing", "chronicle.domain:X")
refused = [is_event_topic(topic) for topic in others]
print(json.dumps({"known": known, "loaded": loaded, "refused": refused}))
"""


def test_a_workers_topic_checks_load_its_own_systems_modules_only():
    """An import's worker checks every line's topic: one of a domain module loads that module, not
    every system's (they are walked only for any other topic, which is refused unless it is one of
    chronicle's classes by another name)."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", CHECK_TOPICS], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    assert found["known"] == [True, True]
    assert not [m for m in found["loaded"] if m.split(".")[2] in ("pendragon", "potestas")]
    assert found["refused"] == [False, False, False]
