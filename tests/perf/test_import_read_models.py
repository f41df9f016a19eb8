"""An import leaves the read models at the log's end, as any write does: the first command after it reads
rows, not every imported event (else a `character show` right after an import folds all of them).
Into a new ledger they are built as `rebuild` builds them; into a ledger in use,
caught up, keeping what its read models held (the sentences `log` kept among them)."""

from __future__ import annotations

import pytest
from conftest import Run, fresh_postgres_database

from chronicle.ledger.bulk import rebuild
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.store.targets import is_postgres

PLAY = [
    "campaign new Greyhawk --system adnd2e",
    "character add Bob --stat hp=30",
    "character add Ann --stat hp=9",
    "injure Bob --damage 4 --mode lethal",
    "rest Ann --hours 8",
    "character rename Ann Anna",
    "roll d20 --for Bob",
]


def _exported(run: Run, tmp_path) -> str:
    (tmp_path / "play.batch").write_text("\n".join(PLAY) + "\n")
    assert run("batch", str(tmp_path / "play.batch")).exit_code == 0
    exported = str(tmp_path / "greyhawk.jsonl")
    assert run("export", "-o", exported).exit_code == 0
    return exported


def _target(run: Run, tmp_path) -> str:
    if is_postgres(run.db):
        return fresh_postgres_database(run.db.rsplit("/", 1)[0] + "/postgres")
    return str(tmp_path / "new.db")


def _positions(target: str) -> tuple[int, int, int]:
    app = open_ledger(target)
    try:
        return app.index.position(), app.characters.position(), app.feed.last()
    finally:
        app.close()


def _told(target: str) -> int:
    app = open_ledger(target)
    try:
        return app.views.query("SELECT COUNT(*) FROM chronicle_told")[0][0]
    finally:
        app.close()


@pytest.mark.parametrize("parallel_from", [1, 10**9], ids=["built as rebuild builds them", "caught up"])
def test_an_import_into_a_new_ledger_leaves_its_read_models_at_the_end(run, tmp_path, monkeypatch, parallel_from):
    monkeypatch.setattr(rebuild, "PARALLEL_FROM", parallel_from)
    exported = _exported(run, tmp_path)
    target = _target(run, tmp_path)
    assert Run(target)("import", exported).exit_code == 0

    index, characters, last = _positions(target)
    assert index == characters == last >= len(PLAY)
    for name in ("Bob", "Anna"):
        assert Run(target).json("character", "show", name) == run.json("character", "show", name)
    assert Run(target).json("log") == run.json("log")


def test_an_import_into_a_ledger_in_use_catches_up_and_keeps_its_told_sentences(run, tmp_path):
    exported = _exported(run, tmp_path)
    target = _target(run, tmp_path)
    home = Run(target)
    assert home("campaign", "new", "Home", "--system", "potestas").exit_code == 0
    assert home("character", "add", "Cat", "--stat", "fort=3").exit_code == 0
    assert home("injure", "Cat", "--damage", "9", "--save-roll", "4").exit_code == 0
    told = _told(target)
    assert told > 0

    assert home("import", exported).exit_code == 0
    index, characters, last = _positions(target)
    assert index == characters == last
    assert _told(target) == told + last - 3  # the home campaign's sentences stay, the import's are added
    assert home.json("character", "show", "Bob", "--campaign", "Greyhawk") == run.json("character", "show", "Bob")
    assert "Cat" in home("log", "Cat", "--tail", "1", "--campaign", "Home").output
