"""Read models and snapshots: rows equal the history folded, rebuilt equals incremental, on both databases."""

from __future__ import annotations

import pytest
from conftest import fresh_postgres_database  # at import: tests/web has a conftest of its own
from reliability.rows import delete, edit
from test_import import events_in

from chronicle.domain.character import Character
from chronicle.domain.ids import key_of
from chronicle.ledger.application.audit import history
from chronicle.ledger.application.session import Session
from chronicle.ledger.application.views.characters import view
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.store.snapshots import INTERVAL
from chronicle.ledger.store.targets import is_postgres

STORIES = {
    "potestas": [
        "character add Brand --stat fort=4 --stat dr=2",
        "character add Door --object --stat hardness=5",
        "injure Brand --damage 12 --save-roll 3",
        "injure Door --damage 9",
        "roll 2d6 --for Brand",
        "rest Brand --hours 8",
        "injure Brand --damage 30 --save-roll 1",
        "injure Brand --damage 30 --save-roll 1",
    ],
    "adnd2e": [
        "character add Bob --stat hp=20",
        "character add Knight --stat hp=40 --stat level=5",
        "injure Bob --damage 7 --mode sap --knockout-roll 80",
        "injure Knight --damage 5 --mode lethal",
        "rest Bob --hours 8",
        "injure Bob --damage 25 --mode lethal",
    ],
    "pendragon-pass": [
        "character add Vasana --stat siz=15 --stat con=13 --stat valorous=17",
        "status award Vasana --foe troll",
        "injure Vasana --damage 8",
        "oath swear Vasana 'kill the troll'",
        "roll d20 --for Vasana",
    ],
}


def tell(run, system: str) -> None:
    run("campaign", "new", system.title(), "--system", system)
    script = "\n".join(STORIES[system]) + "\n"
    result = run("--campaign", system.title(), "batch", "-", input=script)
    assert result.exit_code == 0, result.output


def folded(db: str, campaign: str, name: str) -> dict:
    """What `character show` printed before read models: the aggregate folded from its whole history."""
    app = open_ledger(db)
    session = Session(app, campaign, "test")
    character: Character | None = None
    from chronicle.domain.character import character_id

    for event in history(app, character_id(session.campaign.id, name)):
        character = event.mutate(character)
    assert character is not None
    return view(session, character)


def rows(db: str) -> dict[str, list[tuple]]:
    app = open_ledger(db)
    app.characters.catch_up()
    app.index.catch_up()
    return {
        table: sorted(app.views.query(f"SELECT * FROM {table}"), key=repr)
        for table in (
            "chronicle_character_rows",
            "chronicle_campaigns",
            "chronicle_characters",
            "chronicle_log",
            "chronicle_amendments",
        )
    }


def tables(db: str) -> list[str]:
    """The read models' tables and indexes by name."""
    app = open_ledger(db)
    app.index, app.characters, app.told  # noqa: B018 - made on first use
    if app.views.postgres:
        found = app.views.query(
            "SELECT tablename FROM pg_tables WHERE left(tablename, 10) = 'chronicle_'"
            " UNION SELECT indexname FROM pg_indexes WHERE left(indexname, 10) = 'chronicle_'"
        )
    else:
        found = app.views.query("SELECT name FROM sqlite_master WHERE name LIKE 'chronicle_%'")
    app.close()
    return sorted(
        name
        for (name,) in found
        # not read models: the events and their library's tables, and the witnessed history's own (the stored
        # Merkle tree, the nonces of signed requests), made by the first write
        if not name.startswith(
            ("chronicle_events", "chronicle_snapshots", "chronicle_tracking", "chronicle_tree", "chronicle_nonces")
        )
    )


def tables_of_a_new_ledger(db: str) -> list[str]:
    if is_postgres(db):
        return tables(fresh_postgres_database(db.rsplit("/", 1)[0] + "/postgres"))
    return tables(db + ".new")


def test_each_row_equals_the_character_folded_from_its_history(run):
    for system in STORIES:
        tell(run, system)
    run("--campaign", "Adnd2E", "amend", "#12", "--void", "--reason", "wrong target")
    for system, names in {
        "potestas": ["Brand", "Door"],
        "adnd2e": ["Bob", "Knight"],
        "pendragon-pass": ["Vasana"],
    }.items():
        listed = run.json("--campaign", system.title(), "character", "list")["characters"]
        assert [c["name"] for c in listed] == names
        for name, line in zip(names, listed, strict=True):
            shown = run.json("--campaign", system.title(), "character", "show", name)
            assert shown == folded(run.db, system.title(), name)
            assert line == {k: shown[k] for k in ("name", "version", "summary", "condition", "npc")}


@pytest.mark.parametrize("workers", ["1", "2", "3"])
def test_rebuild_gives_exactly_the_rows_kept_command_by_command(run, workers):
    for system in STORIES:
        tell(run, system)
    incremental = rows(run.db)
    assert run.json("rebuild", "--workers", workers)["projections"] == {
        "index": len(incremental["chronicle_log"]),
        "characters": len(incremental["chronicle_log"]),
    }
    assert rows(run.db) == incremental
    assert run.json("rebuild", "--projection", "characters", "--workers", workers)["projections"] == {
        "characters": len(incremental["chronicle_log"])
    }
    assert rows(run.db) == incremental
    assert tables(run.db) == tables_of_a_new_ledger(run.db)  # no fresh table is left behind, every index is back


def test_a_rebuild_that_fails_leaves_the_read_models_as_they_were(run):
    tell(run, "adnd2e")
    before = rows(run.db)
    edit(run.db, 3, lambda state: state[:-5])  # a character's event no longer decodes
    failed = run("--json", "rebuild", "--workers", "2")
    assert failed.exit_code == 2 and "ended" not in failed.stderr, failed.stderr
    assert rows(run.db) == before


def test_read_models_made_by_another_version_are_replayed_on_first_use(run):
    tell(run, "adnd2e")
    before = rows(run.db)
    app = open_ledger(run.db)
    with app.views.transaction() as cursor:  # as an older chronicle left them: other rows, no schema version
        app.views.execute(cursor, "DELETE FROM chronicle_log WHERE position > 2")
        app.views.reset(cursor, "index:schema")
    app.close()
    assert run.json("--campaign", "Adnd2E", "log")["events"][-1]["position"] == len(before["chronicle_log"])
    assert rows(run.db) == before


def test_an_event_id_is_found_exactly_where_another_event_shares_its_key(run):
    tell(run, "adnd2e")
    events = run.json("--campaign", "Adnd2E", "log")["events"]
    other, wanted = events[2], events[4]  # the impostor comes first in the index
    app = open_ledger(run.db)
    with app.views.transaction() as cursor:  # as if the two ids began with the same 63 bits
        app.views.execute(
            cursor,
            "UPDATE chronicle_log SET event_key = ? WHERE position = ?",
            (key_of(wanted["id"]), other["position"]),
        )
    app.close()
    for ref in (wanted["id"], wanted["id"].upper()):
        assert run.json("--campaign", "Adnd2E", "log", "--since", ref)["events"][0]["position"] == wanted["position"]
    assert run("--campaign", "Adnd2E", "log", "--since", other["id"]).exit_code == 2  # its key is no longer indexed


def test_a_campaign_whose_start_is_gone_from_the_log_does_not_stop_the_others(run):
    tell(run, "adnd2e")
    run("--campaign", "Adnd2E", "roll", "d6", "--for", "Bob")  # appended, not yet in the index
    delete(run.db, 1)  # the campaign's start
    tell(run, "potestas")  # catches the index up past Bob's roll
    assert [e["character"] for e in run.json("--campaign", "Potestas", "log")["events"][1:3]] == ["Brand", "Door"]
    assert run("--json", "rebuild").exit_code == 0


def test_a_batch_shows_its_own_unsaved_events(run_sqlite):
    tell(run_sqlite, "adnd2e")
    out = run_sqlite.json("batch", "-", input="injure Bob --damage 3 --mode lethal\ncharacter show Bob\n")
    assert out == {"lines": 2, "events": 1}
    assert run_sqlite.json("character", "show", "Bob") == folded(run_sqlite.db, "Adnd2E", "Bob")


def test_a_long_character_is_snapshotted_and_stays_exact(run):
    run("campaign", "new", "Long", "--system", "adnd2e")
    run("character", "add", "Bob", "--stat", "hp=2000")
    lines = [
        f"injure Bob --damage {1 + i % 3} --mode lethal" if i % 2 else "rest Bob --hours 8"
        for i in range(INTERVAL + 20)
    ]
    assert run("batch", "-", input="\n".join(lines) + "\n").exit_code == 0
    app = open_ledger(run.db)
    from conftest import campaign_of

    from chronicle.domain.character import character_id
    from chronicle.ledger.store.snapshots import store

    ident = character_id(campaign_of(app, "Long"), "Bob")
    [snapshot] = store(app).get(ident, desc=True, limit=1)
    assert snapshot.originator_version == INTERVAL + 21
    # appending after the snapshot continues the hash chain and the fold
    run("injure", "Bob", "--damage", "2", "--mode", "lethal")
    run("character", "add", "Other", "--stat", "hp=5")
    assert run.json("verify")["ok"] is True
    assert run.json("character", "show", "Bob") == folded(run.db, "Long", "Bob")
    # a state before the snapshot is still folded from the history
    past = run.json("character", "show", "Bob", "--as-of", "#10")
    assert past["version"] == 9
    assert run.json("rebuild", "--projection", "characters")["projections"]["characters"] == INTERVAL + 24
    assert run.json("character", "show", "Bob") == folded(run.db, "Long", "Bob")


def test_import_streams_a_verified_file_into_an_equal_ledger_or_writes_nothing(run, tmp_path):
    tell(run, "adnd2e")
    run("amend", "#3", "--void", "--reason", "wrong target")
    exported = run("export").stdout_bytes
    copy = run.__class__(str(tmp_path / "copy.db"))
    (tmp_path / "log.jsonl").write_bytes(exported)
    assert copy.json("import", str(tmp_path / "log.jsonl"))["events"] == events_in(exported)
    assert copy.json("verify")["ok"] is True
    assert copy.json("character", "show", "Bob") == run.json("character", "show", "Bob")
    again = copy("import", str(tmp_path / "log.jsonl"))
    assert again.exit_code == 1 and copy.json("verify")["events"] == events_in(exported)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(exported.replace(b'"damage":7', b'"damage":70', 1))
    fresh = run.__class__(str(tmp_path / "fresh.db"))
    assert fresh("import", str(tampered)).exit_code == 1
    assert fresh("campaign", "show").exit_code == 2  # nothing was written


@pytest.mark.parametrize("shares", [1, 2, 3])
def test_the_log_read_in_shares_and_windows_is_every_event_once_in_order(run, shares):
    for system in STORIES:
        tell(run, system)
    for position in (6, 7, 8, 9, 15):  # gaps in the positions (a PostgreSQL sequence skips numbers too)
        delete(run.db, position)
    app = open_ledger(run.db)
    stop = app.recorder.max_notification_id()
    assert stop is not None
    everything = [n.id for n in app.recorder.select_notifications(start=1, limit=stop)]
    by_share = [[e.position for page in app.feed.window(2, stop, 3, (k, shares)) for e in page] for k in range(shares)]
    app.close()
    assert all(ids == sorted(ids) for ids in by_share)
    assert sorted(i for ids in by_share for i in ids) == [i for i in everything if i > 2]


@pytest.mark.parametrize("wanted", [[3, 4, 5, 6, 10, 11], [1, 12, -1], []], ids=["dense", "sparse", "none"])
def test_the_events_at_chosen_positions_are_read_as_the_library_reads_them(run, wanted):
    from chronicle.ledger.application.views.history import notifications_at

    for system in STORIES:
        tell(run, system)
    delete(run.db, 6)  # known to the index, gone from the log since
    app = open_ledger(run.db)
    library = {n.id: n for n in app.recorder.select_notifications(start=1, limit=1000)}
    wanted = [max(library) if p == -1 else p for p in wanted]  # -1: the last one
    read = list(notifications_at(app, wanted))
    app.close()
    assert [n.id for n in read] == [p for p in wanted if p != 6]
    assert [(n.originator_id, n.originator_version, n.topic, n.state) for n in read] == [
        (library[n.id].originator_id, library[n.id].originator_version, library[n.id].topic, library[n.id].state)
        for n in read
    ]
