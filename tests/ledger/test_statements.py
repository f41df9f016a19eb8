"""One rule command on a caught-up ledger costs a bounded number of SQL statements, one load of the
character and one derivation of its outcome (the application layer's promise), and leaves both read
models caught up (the index, and the character's row that `character show` reads)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from click.testing import CliRunner
from sql_trace import trace_statements

from chronicle.cli.main import chronicle
from chronicle.domain.potestas import Injured
from chronicle.ledger.store import snapshots


def test_one_injure_without_campaign_issues_a_bounded_number_of_statements_one_load_one_derive(tmp_path, monkeypatch):
    db = str(tmp_path / "ledger.db")
    runner = CliRunner()

    def run(*args: str) -> None:
        result = runner.invoke(chronicle, ["--db", db, "--by", "gm", *args])
        assert result.exit_code == 0, result.output

    run("campaign", "new", "Saltmarsh", "--system", "potestas")
    run("character", "add", "Brand", "--stat", "fort=3")
    run("injure", "Brand", "--damage", "5", "--save-roll", "15")  # the read models catch up on this one

    statements: list[str] = []
    loads: list[object] = []
    load = snapshots.load
    derivations: list[object] = []
    derive = Injured.derive  # bound to Injured, the class whose derive is counted below

    def counted_load(app: Any, ident: UUID, version: int | None = None) -> tuple[Any, int] | None:
        loads.append(ident)
        return load(app, ident, version)

    def counted_derive(cls: type[Injured], *args: Any) -> object:
        derivations.append(args)
        return derive(*args)

    trace_statements(monkeypatch, statements)
    monkeypatch.setattr(snapshots, "load", counted_load)
    monkeypatch.setattr(Injured, "derive", classmethod(counted_derive))
    run("injure", "Brand", "--damage", "12", "--save-roll", "9")

    assert len(derivations) == 1
    assert len(loads) == 2  # the campaign (its rulings and participants) and the character, once each
    # 3 for the campaign's system, read from its row before the line is parsed (one statement, in a read-only
    # transaction of its own: a campaign's system never changes, so nothing is loaded for it); 21 for the
    # command itself: nothing it saved is read back (the index folds its event from memory, and the
    # character's row is written from the character as the command holds it); then the witnessed history: 8
    # before deciding (the log still extends the head this chronicle saw last), and 7 in the write's own
    # transaction to grow the stored Merkle tree by the new event from its hash (the tree's head, the campaign's
    # new positions, the perfect subtrees it grows from, the nodes it completes, traced one by one though one
    # executemany, its new head); the head seen is noted with the root computed as the tree grew. And 4 for what
    # binds a signature: the events table's tripwire (is it there, has a row been changed), the nonce spent (a
    # plain insert that a nonce spent before fails) and the index's fold of it
    assert len(statements) <= 43, "\n".join(statements)
    assert any(s.startswith("INSERT INTO chronicle_character_rows") for s in statements)
    assert any(s.startswith(("INSERT INTO tracking", "UPDATE tracking")) and "'characters'" in s for s in statements)


def test_a_signed_write_on_postgresql_makes_at_most_30_statements_in_its_transaction(postgres_server, monkeypatch):
    """A signed rule command as a long-running front door sends it (the table view, the shell): its one
    transaction, from BEGIN to COMMIT, without a savepoint (docs/scale.md says what each statement is for)."""
    from conftest import fresh_postgres_database
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from sql_trace import trace_postgres

    from chronicle.ledger.application.ledger import Ledger
    from chronicle.ledger.trust.identity import Identity

    ledger = Ledger(fresh_postgres_database(postgres_server), by="gm", identity=Identity(Ed25519PrivateKey.generate()))
    injure = {"command": "injure", "name": "Brand", "damage": 1, "save_roll": 15}
    try:
        ledger.execute_document({"command": "campaign new", "name": "Saltmarsh", "system": "potestas"})
        ledger.execute_document({"command": "character add", "name": "Brand", "stat": ["fort=40"]})
        for _ in range(3):  # what a process asks once (its tables, its tripwire) is asked by now
            ledger.execute_document(injure)
        statements: list[str] = []
        trace_postgres(monkeypatch, statements)
        ledger.execute_document(injure)
    finally:
        ledger.close()

    locked = next(i for i, s in enumerate(statements) if s.startswith("LOCK TABLE"))
    begin = max(i for i, s in enumerate(statements[:locked]) if s == "BEGIN")
    end = next(i for i, s in enumerate(statements) if i > locked and s == "COMMIT")
    write = statements[begin : end + 1]
    assert not [s for s in write if s.startswith(("SAVEPOINT", "RELEASE", "ROLLBACK"))], "\n".join(write)
    assert len(write) <= 30, "\n".join(write)
    assert sum(s.startswith("LOCK TABLE") for s in write) == 1
    assert any("INSERT INTO chronicle_nonces" in s for s in write)
