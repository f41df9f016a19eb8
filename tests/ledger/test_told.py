"""`log` for people from told rows (ledger/application/views/told.py, projections/told.py) says exactly what
the events say when they are told again, on both databases; where rows cannot (a batch's events, a rename since, a
filter by time or session) `log` tells the events themselves."""

from __future__ import annotations

import json
import shlex

import pytest
from campaign_scripts import CAMPAIGNS
from conftest import Run
from reliability.edges import sql

from chronicle.ledger.application.queries import log as log_command
from chronicle.ledger.application.views import told
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.projections import told as told_rows


def test_the_reader_knows_the_rows_version_and_the_index_s_campaign_lookup():
    from chronicle.projections import index

    assert told.TOLD_VERSION == told_rows.VERSION
    assert told.CAMPAIGN == index.CAMPAIGN  # a copy: views/told.py loads no domain model, index.py does


@pytest.fixture
def paths(monkeypatch):
    """Which path each `log` took: "rows" or "events"."""
    taken: list[str] = []
    from_rows = told.told_log

    def spied(*args):
        found = from_rows(*args)
        taken.append("events" if found is None else "rows")
        return found

    monkeypatch.setattr(log_command, "told_log", spied)
    return taken


def events_told_again(run, monkeypatch, *args: str) -> str:
    """`log ARGS` for people as the events themselves tell it."""
    with monkeypatch.context() as patched:
        patched.setattr(log_command, "told_log", lambda *_: None)
        return run("log", *args).stdout


def play(run, script: str) -> None:
    for line in script.replace("\\\n", "").strip().splitlines():
        done = run(*shlex.split(line))
        assert done.exit_code == 0, (line, done.stderr)


@pytest.mark.parametrize("system", sorted(CAMPAIGNS))
def test_every_event_of_every_system_is_told_from_rows_as_the_event_tells_it(run, monkeypatch, paths, system):
    play(run, CAMPAIGNS[system])
    names = [line.split()[2] for line in CAMPAIGNS[system].splitlines() if line.startswith("character add")]
    for args in [(), ("--tail", "5"), *((name,) for name in names)]:
        from_rows = run("log", *args).stdout
        assert paths[-1] == "rows", args
        assert from_rows == events_told_again(run, monkeypatch, *args), args
        assert from_rows.count("\n#") + 1 >= (5 if args == ("--tail", "5") else 1)


def test_corrections_campaign_rolls_and_renames(run, monkeypatch, paths):
    play(
        run,
        """
        campaign new Greyhawk --system potestas
        character add Brand --stat fort=2
        injure Brand --damage 12 --save-roll 3
        injure Brand --damage 4 --save-roll 15
        roll 2d6 --reason "weather"
        """,
    )
    first = run.json("log", "Brand")["events"][1]["position"]
    run("amend", f"#{first}", "--set", "damage=2", "--reason", "misheard")
    run("amend", f"#{first + 1}", "--void", "--reason", "wrong target")
    told = run("log").stdout
    assert paths[-1] == "events"  # the events the corrections changed are told struck and corrected, from the events
    assert "(corrected at #" in told and "It no longer counts (corrected at #" in told and "~~" in told
    assert told == events_told_again(run, monkeypatch)
    assert "The table rolled 2d6" in run("log", "--tail", "3").stdout
    assert paths[-1] == "rows"  # the campaign's roll and the corrections themselves, from rows

    run("character", "rename", "Brand", "Brand the Bold")
    renamed = run("log").stdout
    assert paths[-1] == "events"  # told as Brand: told again under the new name
    assert renamed == events_told_again(run, monkeypatch)
    assert run("log", "Brand the Bold", "--tail", "1").stdout == events_told_again(
        run, monkeypatch, "Brand the Bold", "--tail", "1"
    )
    assert paths[-1] == "rows"  # the rename itself was told under the new name


def test_a_batchs_events_and_filters_are_told_from_the_events(run, monkeypatch, paths, tmp_path):
    play(run, "campaign new Greyhawk --system potestas\ncharacter add Brand --stat fort=2")
    script = tmp_path / "night.batch"
    script.write_text("injure Brand --damage 3 --save-roll 15\nrest Brand --hours 8\n")
    assert run("batch", str(script)).exit_code == 0
    assert run("log", "--tail", "1").stdout == events_told_again(run, monkeypatch, "--tail", "1")
    assert paths[-1] == "events"
    run("roll", "d20", "--for", "Brand")
    assert run("log", "--tail", "1").stdout == events_told_again(run, monkeypatch, "--tail", "1")
    assert paths[-1] == "rows"
    before = len(paths)
    run("log", "--since", "#1")
    run("--json", "log", "--tail", "1")
    run("log", "brand", "--tail", "1")  # not the exact name: the events' path finds it without regard to case
    assert paths[before:] == ["events"]


def test_verify_reports_an_edited_sentence_and_rebuild_clears_them(run, monkeypatch, paths):
    play(run, "campaign new Greyhawk --system potestas\ncharacter add Brand --stat fort=2")
    run("injure", "Brand", "--damage", "12", "--save-roll", "3")
    at = run.json("log", "--tail", "1")["events"][0]["position"]
    assert run.json("verify")["ok"]
    sql(run.db, "UPDATE chronicle_told SET told = ? WHERE position = ?", ("Brand shrugs it off.", at))
    assert "Brand shrugs it off." in run("log", "--tail", "1").stdout  # the forged row, read as it is
    done = run("--json", "verify")
    assert done.exit_code == 1
    assert [(p["position"], p["problem"]) for p in json.loads(done.stdout)["problems"]] == [(at, told.EDITED)]
    assert run("rebuild").exit_code == 0
    assert run.json("verify")["ok"]
    assert run("log", "--tail", "1").stdout == events_told_again(run, monkeypatch, "--tail", "1")
    assert paths[-1] == "events"
    run("rest", "Brand", "--hours", "8")
    assert run("log", "--tail", "1").stdout == events_told_again(run, monkeypatch, "--tail", "1")
    assert paths[-1] == "rows"


def test_an_encrypted_ledger_keeps_no_sentence_in_the_clear(db, monkeypatch, paths):
    monkeypatch.setenv("CHRONICLE_CIPHER_KEY", Run(db).json("key", "new")["key"])
    run = Run(db)
    play(run, 'campaign new Greyhawk --system potestas\ncharacter add Brand --stat fort=2\nnote "the hoard"')
    app = open_ledger(db)
    assert app.told.store.query("SELECT COUNT(*) FROM chronicle_told") == [(0,)]
    app.close()
    assert "the hoard" in run("log").stdout
    assert paths[-1] == "events"


def _imported(run: Run, tmp_path, script: str, request) -> Run:
    """`script` played on `run`'s ledger, exported, and imported into a new ledger of the same kind."""
    from conftest import fresh_postgres_database

    play(run, script)
    exported = str(tmp_path / "campaign.jsonl")
    assert run("export", "-o", exported).exit_code == 0
    if run.db.startswith("postgresql"):
        target = fresh_postgres_database(request.getfixturevalue("postgres_server"))
    else:
        target = str(tmp_path / "imported.db")
    imported = Run(target)
    assert imported("import", exported).exit_code == 0
    return imported


@pytest.mark.parametrize("system", sorted(CAMPAIGNS))
def test_an_imported_campaign_is_told_from_rows_as_its_events_tell_it(
    run, monkeypatch, paths, system, tmp_path, request
):
    """An import keeps the sentences of every event it checked, as the commands that recorded them did:
    `log` of an imported campaign reads rows (rather than telling every imported event again), says what
    the events say, and `verify` finds every row true."""
    imported = _imported(run, tmp_path, CAMPAIGNS[system], request)
    names = [line.split()[2] for line in CAMPAIGNS[system].splitlines() if line.startswith("character add")]
    for args in [(), ("--tail", "5"), *((name,) for name in names), (names[0], "--tail", "2")]:
        from_rows = imported("log", *args).stdout
        assert paths[-1] == "rows", args
        assert from_rows == events_told_again(imported, monkeypatch, *args), args
        assert from_rows == run("log", *args).stdout, args
    assert imported.json("verify")["ok"]


def test_an_import_into_an_encrypted_ledger_keeps_no_sentence_in_the_clear(run, monkeypatch, paths, tmp_path, request):
    monkeypatch.setenv("CHRONICLE_CIPHER_KEY", run.json("key", "new")["key"])
    imported = _imported(run, tmp_path, 'campaign new Greyhawk --system potestas\nnote "the hoard"', request)
    app = open_ledger(imported.db)
    assert app.told.store.query("SELECT COUNT(*) FROM chronicle_told") == [(0,)]
    app.close()
    assert "the hoard" in imported("log").stdout
    assert paths[-1] == "events"
