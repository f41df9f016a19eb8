"""An import cannot bring names or ids a command would not
have made, a read model that cannot take the log says so once instead of retrying for ever, and
`rebuild` repairs the read models from any state."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest
from conftest import Run

from chronicle.ledger.store import feed

from .edges import refused, sql, stored

TRACKING = {"sqlite": "tracking", "postgres": "chronicle_tracking"}


def forged_export(tmp_path: Path, monkeypatch, *commands: tuple[str, ...], **patches) -> str:
    """An export made by commands run with `patches` on ledger/application/session.py (a forger's own chronicle;
    `Session__NAME` patches the class's method NAME): every hash and the closing line are as the export
    computes them. Returns the file's path."""
    from chronicle.ledger.application import session

    source = Run(str(tmp_path / f"forger-{uuid.uuid4().hex[:6]}.db"))
    with monkeypatch.context() as patched:
        for name, replacement in patches.items():
            owner, _, attribute = name.rpartition("__")
            patched.setattr(session.Session if owner else session, attribute, replacement)
        for command in commands:
            assert source(*command).exit_code == 0, command
        text = source("export").stdout
    path = tmp_path / f"forged-{uuid.uuid4().hex[:6]}.jsonl"
    path.write_text(text)
    return str(path)


def bounded(monkeypatch, reads: int = 200) -> None:
    """A catch-up that keeps reading the log after the same position fails the test instead of hanging it."""
    after, seen = feed.LogFeed.after, []

    def counted(self, position: int, limit: int):
        seen.append(position)
        if len(seen) > reads:
            raise AssertionError(f"the log was read {reads} times (last after #{position}): a catch-up spins")
        return after(self, position, limit)

    monkeypatch.setattr(feed.LogFeed, "after", counted)


def kind(db: str) -> str:
    return "postgres" if db.startswith("postgres") else "sqlite"


def greyhawk(run) -> None:
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert run("character", "add", "Bruno", "--stat", "hp=30").exit_code == 0


# High 1: an import file that hung the ledger for good ---------------------------------------------------


def test_a_campaign_under_an_id_the_ledger_holds_is_not_imported(run, tmp_path, monkeypatch):
    """A campaign's id is drawn at random and carried by its export: a file whose campaign has an id the
    ledger holds already (under another name) is refused whole, and the ledger goes on."""
    greyhawk(run)
    taken = uuid.UUID(run.json("campaign", "show")["id"])
    path = forged_export(
        tmp_path,
        monkeypatch,
        ("campaign", "new", "Lankhmar", "--system", "adnd2e"),
        ("character", "add", "Mordenkainen", "--stat", "hp=20"),
        Session__new_campaign_id=lambda self, name: taken,
    )
    before = stored(run.db)
    bounded(monkeypatch)
    refused(run("import", path), 1, "already in the ledger")
    assert stored(run.db) == before
    assert [c["name"] for c in run.json("campaign", "list")["campaigns"]] == ["Greyhawk"]
    assert run.json("verify")["ok"] is True


def test_a_character_whose_id_is_not_its_names_is_not_imported(run, tmp_path, monkeypatch):
    path = forged_export(
        tmp_path,
        monkeypatch,
        ("campaign", "new", "Lankhmar", "--system", "adnd2e"),
        ("character", "add", "Fafhrd", "--stat", "hp=20"),
        character_id=lambda campaign, name: uuid.uuid5(campaign, f"forged:{name}"),
    )
    refused(run("import", path), 1, "line 2", "character 'Fafhrd' does not have the id its name gives")
    assert stored(run.db) == 0


def test_names_a_command_would_not_keep_are_not_imported(run, tmp_path, monkeypatch):
    unkept = forged_export(
        tmp_path,
        monkeypatch,
        ("campaign", "new", "home ", "--system", "adnd2e"),
        normalise_name=lambda text, what="name": text,
    )
    refused(run("import", unkept), 1, "line 1", "'home '")
    twins = forged_export(
        tmp_path,
        monkeypatch,
        ("campaign", "new", "Lankhmar", "--system", "adnd2e"),
        ("character", "add", "Alpha", "--stat", "hp=20"),
        ("character", "add", "alpha", "--stat", "hp=20"),
        Session__has_character=lambda self, name: False,  # (chronicle's own refuses the second)
    )
    refused(run("import", twins), 1, "line 3", "already has a character named 'Alpha'")
    assert stored(run.db) == 0


def test_a_campaign_named_like_another_but_for_case_is_not_imported(run, tmp_path, monkeypatch):
    greyhawk(run)
    path = forged_export(tmp_path, monkeypatch, ("campaign", "new", "greyhawk", "--system", "adnd2e"))
    before = stored(run.db)
    refused(run("import", path), 1, "campaign 'Greyhawk' already exists")
    assert stored(run.db) == before


def test_renamed_characters_and_their_successors_still_import(run, tmp_path, monkeypatch):
    """The ids commands give after a rename (`Alpha#2` for a new Alpha once the first took another name),
    and a rename to another case of the same name, are what commands make: they import."""
    path = forged_export(
        tmp_path,
        monkeypatch,
        ("campaign", "new", "Lankhmar", "--system", "adnd2e"),
        ("character", "add", "Alpha", "--stat", "hp=20"),
        ("character", "rename", "Alpha", "Beta", "--reason", "a new life"),
        ("character", "add", "Alpha", "--stat", "hp=20"),
        ("character", "rename", "Beta", "BETA", "--reason", "louder"),
    )
    assert run.json("import", path)["events"] == 5
    assert sorted(c["name"] for c in run.json("character", "list")["characters"]) == ["Alpha", "BETA"]


def test_a_read_model_that_cannot_take_the_log_says_so_and_rebuild_repairs_it(run, tmp_path, monkeypatch):
    """A ledger poisoned before imports were checked (a second campaign named Greyhawk)
    whose index still has the unique name index of older versions: commands stop with one clear line
    naming `rebuild` instead of spinning, and `rebuild` repairs it."""
    from chronicle.ledger.bulk import names

    greyhawk(run)
    sql(run.db, "DROP INDEX chronicle_campaigns_name")
    sql(run.db, "CREATE UNIQUE INDEX chronicle_campaigns_name ON chronicle_campaigns (name)")
    path = forged_export(
        tmp_path,
        monkeypatch,
        ("campaign", "new", "Greyhawk", "--system", "adnd2e"),
        Session__new_campaign_id=lambda self, name: uuid.uuid4(),  # (another id: the forger's ledger is not seeded)
    )
    bounded(monkeypatch)
    with monkeypatch.context() as unchecked:
        unchecked.setattr(names, "check", lambda *args: None)
        refused(run("import", path), 2, "cannot take the events", "chronicle rebuild")
    for command in (("campaign", "list"), ("roll", "d20"), ("character", "list")):
        refused(run(*command), 2, "chronicle rebuild")
    assert run("rebuild").exit_code == 0
    assert run.json("--campaign", "Greyhawk", "character", "list")["characters"][0]["name"] == "Bruno"
    assert run("roll", "d20").exit_code == 0


def test_a_rewound_position_is_one_clear_line_and_rebuild_repairs_it(run, monkeypatch):
    greyhawk(run)
    assert run("roll", "d20", "--for", "Bruno").exit_code == 0
    sql(run.db, f"UPDATE {TRACKING[kind(run.db)]} SET notification_id = 1 WHERE application_name = 'index'")
    bounded(monkeypatch)
    refused(run("campaign", "list"), 2, "cannot take the events after #1", "chronicle rebuild")
    assert run("rebuild").exit_code == 0
    assert len(run.json("log")["events"]) == 3
    assert run("roll", "d20").exit_code == 0
    assert len(run.json("log")["events"]) == 4


# High 2: PostgreSQL's rebuild beside writers ----------------------------------------------------------


def test_rows_folded_from_a_position_a_rebuild_moved_back_never_land(postgres_server, monkeypatch):
    """A rebuild's swap (fresh rows up to #3, the position back to 3) between a writer's reading the
    read models' position (5) and its writing its own rows: the writer's rows and position are refused,
    its command is tried again whole (its first try's position is left unused) and folds from #3, so
    nothing of #4 and #5 is lost. (On SQLite the writer's transaction holds the write lock by then: no
    swap comes in between.)"""
    from conftest import fresh_postgres_database

    from chronicle.projections.characters import Characters

    run = Run(fresh_postgres_database(postgres_server))
    greyhawk(run)
    assert run("character", "add", "Mordenkainen", "--stat", "hp=40").exit_code == 0
    (at_three,) = sql(run.db, "SELECT version, state, view FROM chronicle_character_rows WHERE name = 'Mordenkainen'")
    for damage in ("3", "4"):
        assert run("injure", "Mordenkainen", "--damage", damage, "--mode", "lethal").exit_code == 0
    written = Characters.write_current
    swapped: list[int] = []

    def after_a_swap(self, *args, **kwargs):
        if not swapped:  # what a rebuild that read the log up to #3 puts in place
            swapped.append(3)
            restore = "UPDATE chronicle_character_rows SET version = ?, state = ?, view = ? WHERE name = 'Mordenkainen'"
            sql(run.db, restore, at_three)
            sql(run.db, "DELETE FROM chronicle_log WHERE position > 3")
            sql(
                run.db,
                "UPDATE chronicle_tracking SET notification_id = 3 WHERE application_name IN ('index', 'characters')",
            )
        return written(self, *args, **kwargs)

    monkeypatch.setattr(Characters, "write_current", after_a_swap)
    rolled = run("roll", "d20", "--for", "Bruno")
    assert rolled.exit_code == 0, rolled.output
    assert swapped
    positions = [e["position"] for e in run.json("log")["events"]]
    assert positions[:5] == [1, 2, 3, 4, 5] and len(positions) == 6 and positions[5] > 5
    assert run.json("character", "show", "Mordenkainen")["version"] == 3
    before = run.json("character", "list")
    assert run("rebuild").exit_code == 0
    assert run.json("character", "list") == before


def test_an_export_is_never_written_from_an_index_that_lacks_events(run, tmp_path):
    greyhawk(run)
    assert run("roll", "d20", "--for", "Bruno").exit_code == 0
    sql(run.db, "DELETE FROM chronicle_log WHERE position = 2")  # a row lost, as a fold from a stale position lost it
    target = tmp_path / "backup.jsonl"
    result = run("export")
    refused(result, 2, "the index lacks 1 event", "chronicle rebuild")
    assert result.stdout == ""
    refused(run("export", "-o", str(target)), 2, "the index lacks 1 event")
    assert not target.exists()
    assert run("rebuild").exit_code == 0
    assert run("export", "-o", str(target)).exit_code == 0
    assert json.loads(target.read_text().splitlines()[-1])["closing"]["events"] == 3


def test_a_fold_that_fails_fails_the_command_before_its_commit(run, monkeypatch):
    """On both databases the read models are folded in the command's own transaction: a fold that
    fails leaves nothing written, and the next command goes on (PostgreSQL once committed first)."""
    from chronicle.projections.index import Index

    greyhawk(run)
    before = stored(run.db)
    folded = Index.write
    failures: list[int] = []

    def failing(self, cursor, rows):
        if not failures:
            failures.append(1)
            raise RuntimeError("the read model failed")
        return folded(self, cursor, rows)

    monkeypatch.setattr(Index, "write", failing)
    assert run("roll", "d20", "--for", "Bruno").exit_code == 2
    assert stored(run.db) == before
    assert run("roll", "d20", "--for", "Bruno").exit_code == 0
    assert [e["version"] for e in run.json("log", "Bruno")["events"]] == [1, 2]


ROUNDS = int(os.environ.get("CHRONICLE_REBUILD_ROUNDS", "1"))  # the acceptance run: 20


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_writers_and_rebuilds_at_once_keep_every_acknowledged_event(postgres_server, round_):
    """Four writers of fifteen rolls each while rebuilds follow one another, and an export between each:
    every write succeeds and is in `log` and the last `export`, versions gapless, no `internal`; an
    export during a rebuild is whole or refused (naming rebuild), never short."""
    import subprocess
    import sys

    from conftest import fresh_postgres_database

    from .processes import PROGRAM

    run = Run(fresh_postgres_database(postgres_server))
    greyhawk(run)
    appender = Path(__file__).with_name("appender.py")
    writers = [
        subprocess.Popen([sys.executable, str(appender), run.db, "Bruno", "15"], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    rebuilt = 0
    while any(writer.poll() is None for writer in writers) or not rebuilt:
        done = subprocess.run([*PROGRAM, "--db", run.db, "rebuild", "--workers", "1"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        rebuilt += 1
        exported = run("export")
        if exported.exit_code:
            refused(exported, 2, "chronicle rebuild")
            continue
        lines = exported.stdout.splitlines()
        assert json.loads(lines[-1])["closing"]["events"] == len(lines) - 1
    for writer in writers:
        report = json.loads(writer.communicate(timeout=600)[0])
        assert report["codes"] == [0] * 15, report["messages"]
    assert [e["version"] for e in run.json("log", "Bruno")["events"]] == list(range(1, 62))
    lines = run("export").stdout.splitlines()
    # the campaign, Bruno, 60 rolls, the ledger's commitment to the chain of their fair dice, the closing line
    assert len(lines) == 64 and json.loads(lines[-1])["closing"]["events"] == 63


# High 3: a read-model update that failed after the commit ----------------------------------------------

HUGE = "9223372036854775807"


def test_totals_beyond_64_bits_are_refused_before_anything_is_written(run):
    """AD&D 2E injuries of 2**63 - 1, then 5, then 1000 damage: the first fits; the others would take the
    damage (or the hit points) beyond 64 bits: bad input, nothing written, and every campaign goes on."""
    greyhawk(run)
    assert run("injure", "Bruno", "--damage", HUGE, "--mode", "lethal").exit_code == 0
    before = stored(run.db)
    refused(run("injure", "Bruno", "--damage", "5", "--mode", "lethal"), 2, "real damage of 'Bruno'", "64-bit limit")
    refused(run("injure", "Bruno", "--damage", "1000", "--mode", "armed-nonlethal"), 2, "of 'Bruno'", "64-bit")
    assert stored(run.db) == before
    assert run.json("character", "show", "Bruno")["condition"]["real_damage"] == int(HUGE)
    assert run("campaign", "new", "Lankhmar", "--system", "adnd2e").exit_code == 0
    assert run("roll", "d20").exit_code == 0
    assert run("rebuild").exit_code == 0
    assert run.json("--campaign", "Greyhawk", "character", "list")["characters"][0]["name"] == "Bruno"


def test_a_total_beyond_64_bits_already_in_the_log_stops_nothing(run, monkeypatch):
    """A ledger written before totals were bounded holds a character whose damage is beyond 64 bits (as
    JSON holds it, up to 2**64 - 1): its row keeps what the log holds, every other command goes on, and
    `rebuild` works; the next injury of that character is refused."""
    from chronicle.projections import characters

    greyhawk(run)
    assert run("character", "add", "Mordenkainen", "--stat", "hp=40").exit_code == 0
    assert run("injure", "Bruno", "--damage", HUGE, "--mode", "lethal").exit_code == 0
    with monkeypatch.context() as unbounded:  # as chronicle stored it before
        unbounded.setattr(characters, "check_int64", lambda *args: None)
        assert run("injure", "Bruno", "--damage", "5", "--mode", "lethal").exit_code == 0
    assert run("rebuild").exit_code == 0
    assert run("injure", "Mordenkainen", "--damage", "3", "--mode", "lethal").exit_code == 0
    listed = {c["name"]: c for c in run.json("character", "list")["characters"]}
    assert listed["Mordenkainen"]["condition"]["real_damage"] == 3
    assert listed["Bruno"]["condition"]["real_damage"] == 2**63 + 4
    refused(run("injure", "Bruno", "--damage", "1", "--mode", "lethal"), 2, "of 'Bruno'", "64-bit")


# Medium 8: SQLite files that are not chronicle's ---------------------------------------------------------


def foreign_file(path: Path, *tables: str) -> Path:
    import sqlite3

    with sqlite3.connect(path) as connection:
        for table in tables:
            connection.execute(f"CREATE TABLE {table} (value TEXT)")
            connection.execute(f"INSERT INTO {table} VALUES ('theirs')")
    return path


@pytest.mark.parametrize(
    "tables", [("tracking",), ("chronicle_notes",), ("notification_tracking",), ("stored_events",), ("photos",)]
)
@pytest.mark.parametrize("form", ["{path}", "file:{path}", "file:{name}", "file://localhost{path}"])
def test_a_foreign_sqlite_file_is_refused_in_every_form_of_its_name(tmp_path, monkeypatch, tables, form):
    from .edges import files

    monkeypatch.chdir(tmp_path)
    victim = foreign_file(tmp_path / "victim.db", *tables)
    before = files(str(victim))
    target = form.format(path=victim, name=victim.name)
    for args in (("campaign", "new", "G", "--system", "adnd2e"), ("log",), ("rebuild",)):
        refused(Run(target)(*args), 2, "not a chronicle database")
    assert files(str(victim)) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["victim.db"]


def test_another_programs_application_id_is_refused(tmp_path):
    import sqlite3

    victim = tmp_path / "theirs.db"
    with sqlite3.connect(victim) as connection:
        connection.execute("PRAGMA application_id = 1234")
        connection.execute("CREATE TABLE stored_events (value TEXT)")
    refused(Run(str(victim))("log"), 2, "application id 0x4d2")


def test_a_file_uri_names_the_file_at_its_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    greyhawk(Run("file:table.db"))
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("table.db-")) == ["table.db"]
    assert Run(str(tmp_path / "table.db")).json("character", "list")["characters"][0]["name"] == "Bruno"
    refused(Run("file:table.db?mode=ro")("log"), 2, "URI parameters are not taken")
    refused(Run(":memory:")("log"), 2, "in memory only")


def test_a_ledger_made_before_files_were_marked_opens_and_is_marked(tmp_path):
    import shutil
    import sqlite3

    from chronicle.ledger.store.targets import APPLICATION_ID

    old = tmp_path / "old.db"
    shutil.copyfile(Path(__file__).resolve().parent.parent / "fixtures" / "ledger-v1.db", old)
    assert len(Run(str(old)).json("--campaign", "Greyhawk", "log")["events"]) == 11
    with sqlite3.connect(old) as connection:
        assert connection.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)


# Medium 9: what an import takes ------------------------------------------------------------------------


@pytest.mark.parametrize("version", ['"2"', "2.0", "true", "0", "null"])
def test_a_version_that_is_not_a_whole_number_is_not_imported(run, tmp_path, version):
    from .edges import exported

    lines = exported(tmp_path)
    lines[2] = lines[2].replace('"originator_version":2', f'"originator_version":{version}')
    assert version in lines[2]
    path = tmp_path / "typed.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    refused(run("import", str(path)), 2, "line 3", "originator_version", "no whole number")
    assert stored(run.db) == 0


def test_an_import_beside_a_writer_waits_its_turn(run, tmp_path, monkeypatch):
    """A writer commits while the import is under way (after it began reading the ledger, before its
    first insert: SQLite then refused the import's write as busy, "conflict"): the import waits for the
    write lock, or the writer for the import's, and both succeed."""
    import subprocess

    from chronicle.ledger.bulk import transfer

    from .processes import start

    greyhawk(run)
    path = forged_export(
        tmp_path,
        monkeypatch,
        ("campaign", "new", "Lankhmar", "--system", "adnd2e"),
        ("character", "add", "Fafhrd", "--stat", "hp=20"),
    )
    ordered = transfer.in_line_order
    rivals: list[subprocess.Popen] = []

    def with_a_rival(streams):
        for chunk in ordered(streams):
            if not rivals:
                rivals.append(start(run.db, "--campaign", "Greyhawk", "roll", "d20", "--for", "Bruno"))
                try:
                    rivals[0].wait(timeout=3)  # it commits now, or waits for the import's lock
                except subprocess.TimeoutExpired:
                    pass
            yield chunk

    monkeypatch.setattr(transfer, "in_line_order", with_a_rival)
    assert run.json("import", path)["events"] == 2
    out, err = rivals[0].communicate(timeout=60)
    assert rivals[0].returncode == 0, err
    assert [e["version"] for e in run.json("--campaign", "Greyhawk", "log", "Bruno")["events"]] == [1, 2]
    assert [c["name"] for c in run.json("--campaign", "Lankhmar", "character", "list")["characters"]] == ["Fafhrd"]
