"""What a command or a batch has just saved is folded into the read models from memory, without reading
those events back from the log (a batch would read and decode all its own events a second time); events
that do not follow the read models' positions directly are read as before."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

import pytest
from campaign_scripts import CAMPAIGNS

from chronicle.ledger.application.session import Session
from chronicle.ledger.application.views import characters
from chronicle.ledger.store import feed
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.projections.catchup import catch_up
from chronicle.projections.characters import Characters
from chronicle.projections.feed import Logged


def _read_back(monkeypatch) -> list[int]:
    """How many events each read of the log after a position returned."""
    pages: list[int] = []
    after = feed.LogFeed.after

    def counted(self, position: int, limit: int):
        page = after(self, position, limit)
        pages.append(len(page))
        return page

    monkeypatch.setattr(feed.LogFeed, "after", counted)
    return pages


def test_a_batch_folds_its_events_into_the_index_without_reading_them_back(run, tmp_path, monkeypatch):
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert run("character", "add", "Bob", "--stat", "hp=40").exit_code == 0
    lines = ["roll d20 --for Bob" if i % 2 else "rest Bob --hours 8" for i in range(1200)]  # several flushes
    (tmp_path / "play.batch").write_text("\n".join(lines) + "\n")
    pages = _read_back(monkeypatch)
    assert run("batch", str(tmp_path / "play.batch")).exit_code == 0
    assert sum(pages) == 0  # nothing of the batch's own was read back

    app = open_ledger(run.db)
    assert app.index.position() == app.feed.last()
    app.close()
    assert len(run.json("log", "Bob")["events"]) == 1201
    assert run.json("verify")["ok"]


def test_saved_events_that_do_not_follow_the_read_models_are_read_from_the_log(run):
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert run("character", "add", "Bob", "--stat", "hp=40").exit_code == 0
    app = open_ledger(run.db)
    try:
        session = Session(app, None, "gm")
        for text in ("the first", "the second"):
            characters.note(session, text, "Bob")
            session.save()
        behind = app.index.position()
        assert behind == app.feed.last() - 2  # neither save was folded
        done = catch_up([app.index], known=session._logged())  # the last save's only: not next to the index
        assert (done, app.index.position()) == (2, app.feed.last())
    finally:
        app.close()
    assert [e["summary"] for e in run.json("log", "Bob")["events"][-2:]] == [
        'A note on Bob: "the first".',
        'A note on Bob: "the second".',
    ]


def _rows(db: str) -> list[tuple]:
    app = open_ledger(db)
    try:
        return app.views.query(
            "SELECT id, campaign_id, name, version, kind, state, view, summary, position"
            " FROM chronicle_character_rows ORDER BY id"
        )
    finally:
        app.close()


@pytest.mark.parametrize("how", ["commands", "batch"])
@pytest.mark.parametrize("system", sorted(CAMPAIGNS))
def test_rows_written_from_the_writers_characters_are_those_the_log_folds_into(run, tmp_path, system, how):
    """Every event of every system (corrections, renames, sheet changes, retirements among them), recorded
    by commands or by one batch: the characters' rows they wrote from the characters as they held them are
    byte for byte the rows a rebuild folds from the log."""
    script = CAMPAIGNS[system].replace("\\\n", "")
    if how == "batch":
        (tmp_path / "play.batch").write_text(script)
        assert run("batch", str(tmp_path / "play.batch")).exit_code == 0
    else:
        for line in script.strip().splitlines():
            assert run(*shlex.split(line)).exit_code == 0, line
    written = _rows(run.db)
    assert len(written) >= 2
    assert run("rebuild").exit_code == 0
    assert _rows(run.db) == written


def test_a_batch_leaves_the_rows_of_the_characters_it_changed_without_folding_its_events(run, tmp_path, monkeypatch):
    """The first `character show` after a long batch reads a row: the batch wrote it (else that show would
    fold every event of the batch)."""
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert run("character", "add", "Bob", "--stat", "hp=40").exit_code == 0
    (tmp_path / "play.batch").write_text("character add Ann --stat hp=9\n" + "rest Bob --hours 8\n" * 600)
    folds: list[int] = []
    fold = Characters.fold

    def counted(self: Characters, events: Sequence[Logged]) -> list[tuple[Any, ...]]:
        folds.append(len(events))
        return fold(self, events)

    monkeypatch.setattr(Characters, "fold", counted)
    assert run("batch", str(tmp_path / "play.batch")).exit_code == 0
    assert sum(folds) == 0
    app = open_ledger(run.db)
    assert app.characters.position() == app.feed.last()
    app.close()
    assert run.json("character", "show", "Bob")["version"] == 601 and sum(folds) == 0
    assert [c["name"] for c in run.json("character", "list")["characters"]] == ["Bob", "Ann"]


def test_losing_the_fold_to_another_process_never_saves_a_command_twice(run, monkeypatch):
    """On PostgreSQL a command's events are committed before it folds them: another process folding them
    first (the read models' position moved on) must not make it decide and save the command again, as it
    does after a lost race on SQLite, where the fold is in the save's transaction and rolls back with it."""
    from eventsourcing.persistence import IntegrityError

    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert run("character", "add", "Bob", "--stat", "hp=40").exit_code == 0
    lost = [True]
    fold = Session.catch_up

    def beaten_once(self, rows: bool = False) -> None:
        if lost.pop() if lost else False:
            raise IntegrityError("another process folded these first")
        fold(self, rows)

    monkeypatch.setattr(Session, "catch_up", beaten_once)
    assert run("roll", "d20", "--for", "Bob").exit_code == 0
    monkeypatch.undo()
    assert [e["type"] for e in run.json("log", "Bob")["events"]] == ["CharacterRegistered", "DiceRolled"]
    assert run.json("verify")["ok"]
