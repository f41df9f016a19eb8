"""Stored topics never import code, what `verify` checks beyond the hash
chains (snapshots, the read models' names, the order sessions promise), and the edges that were an
`internal` error or an unbounded read."""

from __future__ import annotations

import json
import os
import sys
import time
import uuid

import orjson
import pytest

from chronicle.cli import main
from chronicle.ledger.store.targets import is_postgres

from .edges import refused, sql
from .forge import elsewhere
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


def test_an_event_topic_naming_another_module_is_bad_input_everywhere(run, probe, monkeypatch, tmp_path):
    campaign(run)
    topic, _ = probe
    set_topic(run.db, 4, topic)
    elsewhere(monkeypatch, tmp_path / "elsewhere")  # (this user's own chronicle would first say the row changed)
    for command in READERS:
        result = run(*command)
        if result.exit_code:  # (a read from rows alone decodes no event: `campaign report` once caught up)
            refused(result, 2, "not one of chronicle's event classes")
    problems = run("--json", "verify")
    assert problems.exit_code == 1
    assert {"position": 4, "problem": f"names {topic!r}, which is not one of chronicle's events: never read"} in (
        json.loads(problems.stdout)["problems"]
    )


def test_a_creation_naming_another_module_as_its_aggregate_is_never_resolved(run, probe, monkeypatch, tmp_path):
    campaign(run)
    topic, _ = probe
    edit(run.db, 2, lambda state: orjson.dumps({**orjson.loads(state), "originator_topic": topic}))
    elsewhere(monkeypatch, tmp_path / "elsewhere")  # (this user's own chronicle would first refuse: a row changed)
    result = run("--json", "verify")
    assert result.exit_code == 1
    assert {"position": 2, "problem": f"names {topic!r}, which is not one of chronicle's aggregates: never read"} in (
        json.loads(result.stdout)["problems"]
    )
    refused(run("roll", "1d6", "--for", "Bruno"), 2, "not one of chronicle's aggregate classes")


def test_known_topics_are_one_lookup_and_old_names_still_resolve():
    from chronicle.domain.pendragon.events import Checked
    from chronicle.ledger.store import mapper
    from chronicle.ledger.store.snapshots import CharacterSnapshot

    assert mapper.resolved("chronicle.domain.pendragon.checks:Checked", mapper.EVENT) is Checked  # an old topic
    assert mapper.topic_kind("chronicle.domain.character:Character") == mapper.AGGREGATE
    assert mapper.topic_kind("chronicle.ledger.store.snapshots:CharacterSnapshot") == mapper.SNAPSHOT
    assert mapper.resolved("chronicle.ledger.snapshots:CharacterSnapshot", mapper.SNAPSHOT) is CharacterSnapshot
    for forged in ("os:system", "chronicle.domain..x:Y", "chronicle.domain.dice:Dice", "chronicle.domain.nothing:X"):
        assert mapper.topic_kind(forged) is None, forged
        with pytest.raises(mapper.UnknownTopic):
            mapper.resolved(forged, mapper.EVENT)
    with pytest.raises(mapper.UnknownTopic):  # an aggregate is not an event
        mapper.resolved("chronicle.domain.character:Character", mapper.EVENT)


# Medium 7: snapshots are checked -------------------------------------------------------------------


def long_character(run) -> None:
    """Bruno with a snapshot at version 101 (a batch of 100 rolls after his registration)."""
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert run("character", "add", "Bruno", "--stat", "hp=30").exit_code == 0
    assert run("batch", "-", input="roll 1d6 --for Bruno\n" * 100).exit_code == 0
    assert [version for version, _ in snapshot_rows(run.db)] == [101]


def snapshot_rows(db: str) -> list[tuple[int, dict]]:
    rows = sql(db, f"SELECT originator_version, state FROM {snapshots_table(db)} ORDER BY originator_version")
    return [(version, orjson.loads(bytes(state))) for version, state in rows]


def forge_snapshot(db: str, change, seal: bool) -> None:
    """Change the newest snapshot's state; with `seal`, its seal recomputed as chronicle computes it."""
    from chronicle.domain.character_state import CharacterState
    from chronicle.ledger.store.snapshots import sealed_over

    (ident, version, state), *_ = sql(
        db,
        f"SELECT originator_id, originator_version, state FROM {snapshots_table(db)} ORDER BY originator_version DESC",
    )
    data = orjson.loads(bytes(state))
    change(data)
    if seal:
        data["seal"] = sealed_over(
            uuid.UUID(str(ident)), version, data["topic"], CharacterState.model_validate(data["state"])
        )
    sql(
        db,
        f"UPDATE {snapshots_table(db)} SET state = ? WHERE originator_version = ?",
        (orjson.dumps(data), version),
    )


def problems(run) -> list[dict]:
    result = run("--json", "verify")
    assert result.exit_code == 1, result.stdout
    return json.loads(result.stdout)["problems"]


def retire(data: dict) -> None:
    data["state"]["retired"] = True


def test_a_snapshot_edited_in_place_is_not_trusted_and_verify_names_it(run):
    long_character(run)
    forge_snapshot(run.db, retire, seal=False)
    assert run("injure", "Bruno", "--damage", "3", "--mode", "lethal").exit_code == 0  # not refused as retired
    assert problems(run) == [
        {
            "position": 102,
            "problem": "the snapshot of 'Bruno' at version 101 was edited after it was taken (its seal differs):"
            " writes fold the character's events instead",
        }
    ]


def test_a_resealed_forged_snapshot_is_named_by_verify_and_removed_by_rebuild(run):
    long_character(run)
    forge_snapshot(run.db, retire, seal=True)
    assert problems(run) == [
        {
            "position": 102,
            "problem": "the snapshot of 'Bruno' at version 101 differs from the fold of the events before it"
            " (edited, and sealed again): `chronicle rebuild` removes the snapshots",
        }
    ]
    assert run("rebuild").exit_code == 0 and snapshot_rows(run.db) == []
    assert run.json("verify")["ok"] is True
    assert run("injure", "Bruno", "--damage", "3", "--mode", "lethal").exit_code == 0


def test_a_snapshot_moved_off_its_event_is_not_trusted(run):
    """A snapshot whose head hash is not the hash of the event at its version (sealed again) folds the events."""

    def heal(data: dict) -> None:  # the state a forger wants, and the head hash of another event
        data["state"]["condition"]["real_damage"] = 0
        data["state"]["head_hash"] = "0" * 64

    long_character(run)
    assert run("injure", "Bruno", "--damage", "20", "--mode", "lethal").exit_code == 0  # version 102, after it
    forge_snapshot(run.db, heal, seal=True)
    shown = run.json("injure", "Bruno", "--damage", "5", "--mode", "lethal")
    assert run.json("character", "show", "Bruno")["condition"]["real_damage"] == 25, shown
    assert any("the snapshot of 'Bruno' at version 101 differs" in p["problem"] for p in problems(run))


def test_a_snapshot_naming_another_module_is_never_resolved(run, probe):
    long_character(run)
    topic, _ = probe
    forge_snapshot(run.db, lambda data: data.update(topic=topic), seal=True)
    assert run("roll", "1d6", "--for", "Bruno").exit_code == 0
    assert problems(run) == [
        {
            "position": 102,
            "problem": "the snapshot of 'Bruno' at version 101 cannot be read (UnknownTopic):"
            " writes fold the character's events instead",
        }
    ]
    table = snapshots_table(run.db)
    sql(run.db, f"UPDATE {table} SET topic = ?", (topic,))  # the row's own topic
    assert run("roll", "1d6", "--for", "Bruno").exit_code == 0


# Medium 7: the rows the table reads names from are checked ------------------------------------------


def test_a_character_renamed_in_the_index_alone_is_named_by_verify(run):
    campaign(run)
    sql(run.db, "UPDATE chronicle_characters SET name = ?", ("Mallory",))
    assert "Mallory rolled" in run("log").stdout  # what the table would read
    assert problems(run) == [
        {
            "position": 5,
            "problem": "the index differs from the log for 'Bruno' (its name, campaign, kind or retirement edited):"
            " `chronicle rebuild` restores it",
        }
    ]
    assert run("rebuild").exit_code == 0
    assert "Mallory" not in run("log").stdout and run.json("verify")["ok"] is True


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE chronicle_character_rows SET name = 'Mallory'",
        "UPDATE chronicle_character_rows SET version = 2",
        "UPDATE chronicle_character_rows SET state = REPLACE(state, '\"retired\":false', '\"retired\":true')",
        "UPDATE chronicle_characters SET retired = 1",
        "UPDATE chronicle_campaigns SET name = 'Blackmoor'",
        "INSERT INTO chronicle_characters (id, campaign_id, name, system, kind, position, retired)"
        " SELECT '00000000-0000-0000-0000-000000000001', id, 'Mallory', system, 'pc', 9, 0 FROM chronicle_campaigns",
    ],
    ids=["row-name", "row-version", "row-state", "index-retired", "campaign-name", "stranger"],
)
def test_every_read_model_row_the_table_reads_is_checked(run, statement):
    campaign(run)
    assert run.json("verify")["ok"] is True
    sql(run.db, statement)
    found = problems(run)
    assert len(found) == 1 and found[0]["problem"].endswith("`chronicle rebuild` restores it"), found
    assert json.loads(run("--json", "verify", "--workers", "3").stdout)["problems"] == found  # side by side
    assert run("rebuild").exit_code == 0 and run.json("verify")["ok"] is True


# Medium 7: the order sessions promise --------------------------------------------------------------


def swap(db: str, first: int, second: int) -> None:
    """Swap two events' log positions, with their index and told rows: every chain still checks out."""
    table, at = events_table(db)
    for name, column in ((table, at), ("chronicle_log", "position"), ("chronicle_told", "position")):
        sql(db, f"UPDATE {name} SET {column} = ? WHERE {column} = ?", (-1, first))
        sql(db, f"UPDATE {name} SET {column} = ? WHERE {column} = ?", (first, second))
        sql(db, f"UPDATE {name} SET {column} = ? WHERE {column} = ?", (second, -1))


def two_sessions(run) -> None:
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0  # 1
    assert run("character", "add", "Bruno", "--stat", "hp=30").exit_code == 0  # 2
    assert run("character", "add", "Alice", "--stat", "hp=20").exit_code == 0  # 3
    assert run("session", "start", "one").exit_code == 0  # 4
    assert run("roll", "1d6", "--for", "Bruno").exit_code == 0  # 5
    assert run("roll", "1d6", "--for", "Alice").exit_code == 0  # 6
    assert run("session", "end").exit_code == 0  # 7
    assert run("session", "start", "two").exit_code == 0  # 8
    assert run("roll", "1d6", "--for", "Bruno").exit_code == 0  # 9
    assert run.json("verify")["ok"] is True


def test_events_swapped_across_a_session_end_are_named_by_verify(run):
    two_sessions(run)
    before = run("log", "--session", "1").stdout
    swap(run.db, 6, 9)  # Alice's roll leaves session 1, Bruno's second joins it
    for table in ("chronicle_trees", "chronicle_tree_nodes"):  # and the stored Merkle tree is grown again
        sql(run.db, f"DELETE FROM {table}")
    assert "Alice rolled" in before and "Alice rolled" not in run("log", "--session", "1").stdout
    problem = {
        "position": 7,
        "problem": "session 1 ended after the campaign's first 6 events, which no longer make the digest it noted:"
        " events before its end were moved, removed or rewritten",
    }
    assert problems(run) == [problem]
    assert json.loads(run("--json", "verify", "--workers", "2").stdout)["problems"] == [problem]


# Low items ------------------------------------------------------------------------------------------


def test_a_digest_of_no_events_is_not_a_digest(run):
    two_sessions(run)
    refused(run("verify", "--digest", "0-" + "ab" * 16), 2, "--digest takes a digest")


@pytest.mark.parametrize("host", ["", "a" * 300, "a..b", "a." * 200, "not a host"])
def test_serve_on_what_is_not_a_host_is_bad_input(run_sqlite, host):
    assert run_sqlite("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    line = refused(run_sqlite("serve", "--host", host, "--port", "0"), 2, "cannot listen on")
    assert len(line) < 200


def test_a_position_of_five_thousand_digits_is_bad_input(run):
    campaign(run)
    huge = "#" + "9" * 5000
    for result in (
        run("character", "show", "Bruno", "--as-of", huge),  # where arguments enter
        run("batch", "-", input=f"character show Bruno --as-of {huge}\n"),  # a batch line: refs.py
        run("log", "--since", "#" + "0" * 4999 + "2"),
    ):
        if result.exit_code:
            assert len(refused(result, 2)) < 300
    assert run.json("log", "--since", "#" + "0" * 4999 + "2")["events"][0]["position"] == 2


def test_a_setting_that_is_not_utf8_is_bad_input_naming_it(run, monkeypatch):
    campaign(run)
    monkeypatch.setenv("CHRONICLE_BY", "a\udcff")  # what Python makes of CHRONICLE_BY=$'a\xff'
    result = run.runner.invoke(main.chronicle, ["--db", run.db, "roll", "1d6"], catch_exceptions=False)
    refused(result, 2, "$CHRONICLE_BY", "not valid UTF-8")


def test_a_url_parameter_beyond_64_bits_never_shows_the_password(tmp_path):
    from conftest import Run

    url = "postgresql://u:secret@127.0.0.1:5432/x?connect_timeout=" + "9" * 24
    line = refused(Run(url)("log"), 2, "connect_timeout", "64-bit")
    assert "secret" not in line


def test_an_over_long_db_is_one_short_line():
    from conftest import Run

    line = refused(Run("a" * 100_000)("log"), 2, "100,000 characters")
    assert len(line) < 200


@pytest.mark.parametrize(
    "line", ["log --tail " + "1" + "0" * 30, "character add Carl --stat hp=" + "9" * 30, "note a\x00b"]
)
def test_a_batch_line_is_checked_as_a_command_line_is(run, line):
    campaign(run)
    before = sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}")
    refused(run("batch", "-", input=f"roll 1d6\n{line}\n"), 2, "line 2:")
    assert sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}") == before


def test_grab_state_held_by_names_another_character_of_the_campaign(run):
    campaign(run)
    assert run("character", "add", "Orc", "--stat", "hp=8").exit_code == 0
    before = sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}")
    refused(run("grab", "state", "Bruno", "--held-by", "Nobody"), 2, "Nobody")
    refused(run("grab", "state", "Bruno", "--held-by", "bruno"), 2, "cannot hold themself")
    assert sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}") == before
    held = run.json("grab", "state", "Bruno", "--held-by", "orc")  # its name as the campaign writes it
    assert run.json("character", "show", "Bruno")["condition"]["held_by"] == "Orc", held


def test_a_file_without_line_ends_is_bad_input_not_read_whole(run):
    campaign(run)
    before = sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}")
    refused(run("verify", "--against", "/dev/zero"), 2, "longer than 16,777,216 bytes")
    refused(run("import", "/dev/zero"), 2, "longer than 16,777,216 bytes")
    assert sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}") == before


def test_an_export_whose_closing_line_is_cut_is_bad_input(run, tmp_path):
    from .edges import exported

    lines = exported(tmp_path)
    assert run("campaign", "new", "Blackmoor", "--system", "potestas").exit_code == 0
    for cut in (10, 30, len(lines[-1]) - 1):  # (a line cut before `{"closing":` is no event either)
        path = tmp_path / f"cut-{cut}.jsonl"
        path.write_text("\n".join([*lines[:-1], lines[-1][:cut]]) + "\n")
        refused(run("import", str(path)), 2)
        assert sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}") == [(1,)]
    refused(run("import", str(path)), 2, "its closing line is cut short")


KILLED_WRITER = """
import os, signal, sys
from chronicle.cli.files import written

with written(sys.argv[1]) as sink:
    sink.write(b"half an export")
    sink.flush()
    os.kill(os.getpid(), signal.SIGKILL)  # as `kill -9` of an export half-way
"""


def test_an_export_removes_what_a_killed_export_left(run_sqlite, tmp_path):
    import subprocess

    story = tmp_path / "story.jsonl"
    assert run_sqlite("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert subprocess.run([sys.executable, "-c", KILLED_WRITER, str(story)]).returncode == -9
    (killed,) = tmp_path.glob(".story.jsonl.*")
    running = tmp_path / f".story.jsonl.chronicle-{os.getpid()}-a1b2c3.part"  # (this process: still writing)
    others = [tmp_path / ".story.jsonl.chronicle-99999999999999999999-q.part", tmp_path / ".other.chronicle-1-q.part"]
    for path in (running, *others):
        path.write_text("half")
    assert run_sqlite("export", "-o", str(story)).exit_code == 0
    assert not killed.exists() and running.exists() and all(p.exists() for p in others)
    assert sorted(p.name for p in tmp_path.glob(".story*")) == sorted(p.name for p in (running, others[0]))


def test_a_full_disk_is_one_line_saying_so_and_nothing_is_written(run, monkeypatch):
    """As the databases say it (a real full disk, a tiny tmpfs, says the same: checked by hand)."""
    import sqlite3

    import psycopg

    from chronicle.ledger.store import postgres as durable_postgres
    from chronicle.ledger.store import sqlite as durable_sqlite

    campaign(run)
    before = sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}")

    def full(*args, **kwargs):
        if is_postgres(run.db):
            raise psycopg.errors.DiskFull('could not extend file "base/16384/2619": No space left on device')
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(durable_sqlite.SealedSQLiteRecorder, "insert_events", full)
    monkeypatch.setattr(durable_postgres.SealedPostgresRecorder, "insert_events", full)
    for command in (("roll", "1d6", "--for", "Bruno"), ("batch", "-")):
        result = run("--json", *command, input="roll 1d6\nnote x\n")
        assert result.exit_code == 2 and json.loads(result.stderr)["error"]["code"] == "disk_full", result.stderr
    monkeypatch.undo()
    assert sql(run.db, f"SELECT COUNT(*) FROM {events_table(run.db)[0]}") == before
    assert run.json("verify")["ok"] is True


RACER = """
import os, sys, time
from click.testing import CliRunner
from chronicle.cli.main import chronicle

while not os.path.exists(sys.argv[1]):
    time.sleep(0.002)
command = ["--json", "--db", sys.argv[2], "campaign", "new", sys.argv[3], "--system", "adnd2e"]
result = CliRunner().invoke(chronicle, command)
sys.stdout.write(result.stderr or "ok")
"""


def test_the_losers_of_a_race_to_turn_on_encryption_are_told_so(db, tmp_path):
    """Ten processes, loaded and waiting, create a fresh ledger's first campaign at once, half of them
    with a key: one kind wins; each loser is one line of bad input (never internal), and the ledger verifies."""
    import subprocess

    from conftest import Run

    key = Run(db)("key", "new").stdout.strip()
    barrier = tmp_path / "go"
    racers = []
    for i in range(10):
        env = {k: v for k, v in os.environ.items() if k != "CHRONICLE_CIPHER_KEY"}
        if i % 2:
            env["CHRONICLE_CIPHER_KEY"] = key
        args = [sys.executable, "-c", RACER, str(barrier), db, f"C{i}"]
        racers.append((i % 2, subprocess.Popen(args, env=env, stdout=subprocess.PIPE, text=True)))
    time.sleep(3)  # every racer has loaded chronicle and waits
    barrier.touch()
    results = [(keyed, process.communicate(timeout=120)[0]) for keyed, process in racers]
    winners = {keyed for keyed, out in results if out == "ok"}
    assert len(winners) == 1, results
    for keyed, out in results:
        if out != "ok":
            assert keyed not in winners and json.loads(out)["error"]["code"] == "bad_input", out
    env_key = key if winners == {1} else None
    with pytest.MonkeyPatch.context() as patched:
        if env_key:
            patched.setenv("CHRONICLE_CIPHER_KEY", env_key)
        else:
            patched.delenv("CHRONICLE_CIPHER_KEY", raising=False)
        assert Run(db).json("--campaign", "C0" if winners == {0} else "C1", "verify")["ok"] is True


def test_a_reader_opened_before_an_encrypted_first_event_is_told_so(db, monkeypatch):
    """The race above, made deterministic: a process without the key opened the empty ledger, then a
    process with one wrote its first event; the first's catch-up is bad input, not a JSON error."""
    from conftest import Run

    from chronicle.domain.errors import BadInput
    from chronicle.ledger.store.chronicle import open_ledger

    monkeypatch.delenv("CHRONICLE_CIPHER_KEY", raising=False)
    key = Run(db)("key", "new").stdout.strip()
    plain = open_ledger(db)
    try:
        monkeypatch.setenv("CHRONICLE_CIPHER_KEY", key)
        assert Run(db)("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
        with pytest.raises(BadInput, match="its events are encrypted"):
            plain.feed.after(0, 10)  # what a catch-up reads
        with pytest.raises(BadInput, match="its events are encrypted"):
            plain.repository.get(uuid.UUID(plain.index.campaigns()[0][0]))  # what a write loads
    finally:
        plain.close()


OPENER = """
import os, sys, time
from chronicle.ledger.store.chronicle import open_ledger

while not os.path.exists(sys.argv[1]):
    time.sleep(0.001)
open_ledger(sys.argv[2]).close()
"""


def test_processes_opening_a_new_file_at_once_all_open_it(tmp_path):
    """Twelve processes, loaded and waiting, open one new SQLite file at once, three times: SQLite's
    "locked" on the change to WAL and the library's tracking migration recorded twice were each a
    failed open for the losers; each now waits its turn or finds the work done."""
    import subprocess

    for round in range(3):
        barrier, db = tmp_path / f"go{round}", str(tmp_path / f"ledger{round}.db")
        openers = [
            subprocess.Popen([sys.executable, "-c", OPENER, str(barrier), db], stderr=subprocess.PIPE, text=True)
            for _ in range(12)
        ]
        time.sleep(2.5)  # every opener has loaded chronicle and waits
        barrier.touch()
        failures = [process.communicate(timeout=120)[1] for process in openers]
        assert [process.returncode for process in openers] == [0] * 12, [f for f in failures if f][:1]
