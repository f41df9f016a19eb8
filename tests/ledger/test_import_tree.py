"""An import grows the imported campaign's stored Merkle tree as its last step, so the first write after it
grows the tree by its own events only (it read every imported event before). On SQLite and PostgreSQL."""

from __future__ import annotations

import functools
import io
from uuid import uuid4

import pytest
from trees import grown_to_the_log

from chronicle.ledger.application.commands import potestas, table
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.bulk.transfer import export_lines, import_lines
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.trust import tree


@pytest.mark.parametrize("window", [tree.WINDOW, 4])  # log positions read at a time: one window, and several
def test_an_import_leaves_the_tree_grown_to_its_events(db, monkeypatch, tmp_path, window):
    monkeypatch.setenv("CHRONICLE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tree, "WINDOW", window)
    source = Ledger(str(tmp_path / "source.db"), by="gm", seed=5)
    source.execute(table.CampaignNew(name=f"Imported {uuid4().hex[:8]}", system="potestas"))
    source.execute(table.CharacterAdd(name="Brand", stat=["fort=30"]))
    for i in range(11):
        source.execute(potestas.Injure(name="Brand", damage=1 + i % 3, save_roll=10))
    exported = b"\n".join(export_lines(source.read())) + b"\n"
    source.close()

    import_lines(functools.partial(open_ledger, db), io.BytesIO(exported), workers=1)

    ledger = Ledger(db, by="gm")
    try:
        app, campaign = ledger.app, ledger.read().campaign.id
        assert grown_to_the_log(app, campaign)[0].size == 13
        ledger.execute(potestas.Injure(name="Brand", damage=1, save_roll=10))
        assert grown_to_the_log(app, campaign)[0].size == 14
    finally:
        ledger.close()
