"""An import leaves a snapshot of every character with INTERVAL events or more, made from its own check's
fold: the first command that loads such a character folds none of its history, and finds it exactly as
the whole history folds it (else each first load after an import folds the character's whole history)."""

from __future__ import annotations

from conftest import Run, fresh_postgres_database

from chronicle.domain.character import Character, character_id
from chronicle.domain.character_state import CharacterState
from chronicle.ledger.application.audit import history
from chronicle.ledger.application.session import Session
from chronicle.ledger.store import snapshots
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.store.targets import is_postgres


def test_an_import_snapshots_its_long_characters_as_their_history_folds_them(run, tmp_path):
    lines = ["campaign new Greyhawk --system adnd2e", "character add Bob --stat hp=30", "character add Ann --stat hp=9"]
    lines += ["roll d20 --for Bob" if i % 3 else "rest Bob --hours 8" for i in range(snapshots.INTERVAL + 20)]
    lines += ["injure Bob --damage 4 --mode lethal", "roll d6 --for Ann"]
    (tmp_path / "play.batch").write_text("\n".join(lines) + "\n")
    assert run("batch", str(tmp_path / "play.batch")).exit_code == 0
    exported = tmp_path / "greyhawk.jsonl"
    assert run("export", "-o", str(exported)).exit_code == 0

    target = (
        fresh_postgres_database(run.db.rsplit("/", 1)[0] + "/postgres")
        if is_postgres(run.db)
        else str(tmp_path / "new.db")
    )
    assert Run(target)("import", str(exported)).exit_code == 0

    app = open_ledger(target)
    campaign = Session(app, None, "test").campaign.id
    bob, ann = character_id(campaign, "Bob"), character_id(campaign, "Ann")
    found = snapshots.load(app, bob)
    assert found is not None
    loaded, folded = found
    assert folded == 0 and loaded.version == snapshots.INTERVAL + 22  # registered, the plays, the injury
    whole: Character | None = None
    for event in history(app, bob):
        whole = event.mutate(whole)
    assert whole is not None
    assert CharacterState.of(loaded) == CharacterState.of(whole)
    short = snapshots.load(app, ann)
    assert short is not None and short[1] == 2  # a short history: no snapshot, folded whole
    app.close()
    assert Run(target).json("character", "show", "Bob") == run.json("character", "show", "Bob")
