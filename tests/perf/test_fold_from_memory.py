"""What a command or a batch has just saved is folded into the read models from memory, without reading
those events back from the log (issue 26: a sixth of a 20,000-line batch went to reading and decoding its
own events again); events that do not follow the read models' positions directly are read as before."""

from __future__ import annotations

from chronicle.ledger import characters, feed
from chronicle.ledger.app import open_ledger
from chronicle.ledger.session import Session
from chronicle.projections.catchup import catch_up


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
