"""A witnessed history (CONTRACT "Witnessed history"): `checkpoint` signs the campaign's RFC 6962
tree head as a C2SP note; `verify --witness NOTE` proves today's log extends it, or names the first
position whose history changed, even when whoever edited the database recomputed every hash chain.
Each chronicle remembers the last checkpoint it saw and refuses to sign over a rewritten log.

The tampering is plain SQL on the events table, as an attacker with the database file would do it,
on SQLite and on PostgreSQL: an event edited, removed (its aggregate's later versions renumbered) or
two events swapped, every hash chain recomputed after it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3

import orjson
import pytest

from chronicle.ledger.store.targets import is_postgres
from chronicle.ledger.trust import merkle


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    folder = tmp_path / "chronicle-home"
    monkeypatch.setenv("CHRONICLE_HOME", str(folder))
    return folder


def story(run) -> dict[str, int]:
    """A campaign, two characters, rolls taking turns between them: their log positions by name."""
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    for name in ("Bruno", "Ann"):
        run("character", "add", name, "--stat", "hp=30")
    for i in range(3):
        for name in ("Bruno", "Ann"):
            run("roll", "2d6", "--for", name, "--reason", f"{name} {i}")
    return {
        e["data"].get("reason") or e["type"]: e["position"]
        for e in run.json("log")["events"]
        if e["type"] in ("DiceRolled",)
    }


def take_checkpoint(run, tmp_path) -> str:
    result = run("checkpoint")
    assert result.exit_code == 0, result.stderr
    (tmp_path / "note").write_text(result.stdout)
    return str(tmp_path / "note")


def witness(run, note: str) -> tuple[int, dict]:
    result = run("--json", "verify", "--witness", note)
    return result.exit_code, json.loads(result.stdout)


# the attacker's SQL ---------------------------------------------------------------------------------


class Table:
    """The events table of a ledger, by plain SQL."""

    def __init__(self, db: str):
        self.db, self.pg = db, is_postgres(db)
        self.name, self.at = ("chronicle_events", "notification_id") if self.pg else ("stored_events", "rowid")

    def sql(self, statement: str, params: tuple = ()) -> list[tuple]:
        if self.pg:
            import psycopg

            with psycopg.connect(self.db, autocommit=True) as connection:
                cursor = connection.execute(statement.replace("?", "%s"), params)
                return cursor.fetchall() if cursor.description else []
        with sqlite3.connect(self.db) as connection:
            return connection.execute(statement, params).fetchall()

    def row(self, position: int) -> tuple:
        return self.sql(
            f"SELECT originator_id, originator_version, topic, state FROM {self.name} WHERE {self.at} = ?", (position,)
        )[0]

    def chain(self, originator) -> list[tuple]:
        return self.sql(
            f"SELECT {self.at}, originator_version, topic, state FROM {self.name} WHERE originator_id = ?"
            " ORDER BY originator_version",
            (originator,),
        )

    def rechain(self, originator) -> None:
        """Recompute every hash of the aggregate's chain, as `verify` computes them."""
        previous = ""
        for position, version, topic, state in self.chain(originator):
            data = orjson.loads(bytes(state))
            data["prev_hash"] = previous
            body = {k: v for k, v in data.items() if k not in ("hash", "class_version")}
            body.update(originator_id=str(_uuid(originator)), originator_version=version)
            data["hash"] = previous = hashlib.sha256(
                orjson.dumps([topic, body], option=orjson.OPT_SORT_KEYS)
            ).hexdigest()
            self.sql(f"UPDATE {self.name} SET state = ? WHERE {self.at} = ?", (orjson.dumps(data), position))

    def edit(self, position: int, old: bytes, new: bytes) -> None:
        originator, _, _, state = self.row(position)
        assert old in bytes(state)
        self.sql(f"UPDATE {self.name} SET state = ? WHERE {self.at} = ?", (bytes(state).replace(old, new), position))
        self.rechain(originator)

    def remove(self, position: int) -> None:
        """Delete the event, number its aggregate's later events down by one and rechain them."""
        originator, version, _, _ = self.row(position)
        self.sql(f"DELETE FROM {self.name} WHERE {self.at} = ?", (position,))
        for later, number, _, _ in self.chain(originator):
            if number > version:
                self.sql(f"UPDATE {self.name} SET originator_version = ? WHERE {self.at} = ?", (number - 1, later))
        self.rechain(originator)

    def swap(self, first: int, second: int) -> None:
        """Put two events (of different aggregates, nothing of theirs between them) in each other's place."""
        rows = {at: self.row(at) for at in (first, second)}
        self.sql(f"DELETE FROM {self.name} WHERE {self.at} IN (?, ?)", (first, second))
        for at, (originator, version, topic, state) in ((first, rows[second]), (second, rows[first])):
            self.sql(
                f"INSERT INTO {self.name} (originator_id, originator_version, topic, state, {self.at})"
                " VALUES (?, ?, ?, ?, ?)",
                (originator, version, topic, bytes(state), at),
            )


def _uuid(stored):
    from uuid import UUID

    return stored if isinstance(stored, UUID) else UUID(stored)


# what the witness proves ----------------------------------------------------------------------------


def test_identity_show_prints_the_key_made_on_first_need(run, home):
    shown = run.json("identity", "show")
    assert shown["key"].startswith("ed25519:") and len(base64.b64decode(shown["key"][8:])) == 32
    assert (home / "identity.key").stat().st_mode & 0o777 == 0o600 and home.stat().st_mode & 0o777 == 0o700
    assert run.json("identity", "show")["key"] == shown["key"]
    assert shown["key"] in run("identity", "show").stdout


def test_a_note_is_a_signed_c2sp_checkpoint_of_the_campaign(run, tmp_path, home):
    story(run)
    shown = run.json("campaign", "show")
    made = run.json("checkpoint")
    assert made["campaign"] == shown["id"] and made["size"] == len(run.json("log")["events"])
    lines = made["note"].split("\n")
    assert lines[:3] == [f"chronicle/{shown['id']}", str(made["size"]), made["root"]]
    assert lines[3] == "" and lines[4].startswith("\u2014 ed25519:") and lines[5:] == [""]
    assert made["key"] == run.json("identity", "show")["key"]
    assert len(base64.b64decode(made["root"])) == 32
    from uuid import UUID

    from chronicle.ledger.trust.witness import seen_key

    key = seen_key(UUID(shown["id"]), run.db)
    (entry,) = (home / "checkpoints").glob("*.json")  # a file per ledger and campaign
    assert json.loads(entry.read_text()) == {"key": key, "size": made["size"], "root": made["root"]}


def test_appending_keeps_the_note_extended_with_a_verified_consistency_proof(run, tmp_path):
    story(run)
    note = take_checkpoint(run, tmp_path)
    code, report = witness(run, note)
    assert code == 0 and report["witness"]["extends"] and report["witness"]["proof"] == []
    for i in range(5):
        run("roll", "d20", "--for", "Ann", "--reason", f"later {i}")
    code, report = witness(run, note)
    seen = report["witness"]
    assert code == 0 and report["ok"] and seen["extends"] and seen["position"] is None
    assert seen["log"]["size"] == seen["size"] + 5
    proof = [base64.b64decode(p) for p in seen["proof"]]
    roots = base64.b64decode(seen["root"]), base64.b64decode(seen["log"]["root"])
    assert merkle.verify_consistency(seen["size"], seen["log"]["size"], *roots, proof)
    human = run("verify", "--witness", note)
    assert human.exit_code == 0 and "extends the checkpoint" in human.stdout


@pytest.mark.parametrize("tamper", ["edit", "remove", "swap"])
def test_a_rewritten_history_is_named_at_its_first_changed_position(run, tmp_path, tamper):
    at = story(run)
    note = take_checkpoint(run, tmp_path)
    run("roll", "d20", "--for", "Bruno", "--reason", "after the checkpoint")
    table = Table(run.db)
    if tamper == "edit":
        table.edit(at["Bruno 1"], b"Bruno 1", b"Bruno 9")
        changed = at["Bruno 1"]
    elif tamper == "remove":
        table.remove(at["Ann 0"])
        changed = at["Ann 0"]
    else:
        table.swap(at["Ann 1"], at["Bruno 2"])
        changed = at["Ann 1"]
    code, report = witness(run, note)
    assert code == 1 and not report["ok"]
    assert report["witness"]["extends"] is False and report["witness"]["position"] == changed
    named = [p for p in report["problems"] if "no longer extends the checkpoint" in p["problem"]]
    assert [p["position"] for p in named] == [changed]
    human = run("verify", "--witness", note)
    assert human.exit_code == 1 and f"changed at #{changed}" in human.stdout


def test_plain_verify_compares_the_stored_tree_with_the_events(run, tmp_path):
    at = story(run)
    take_checkpoint(run, tmp_path)
    Table(run.db).edit(at["Ann 2"], b"Ann 2", b"Ann 7")
    report = json.loads(run("--json", "verify").stdout)
    assert any(p["position"] == at["Ann 2"] and "Merkle tree" in p["problem"] for p in report["problems"])


def test_rewriting_the_stored_tree_with_the_events_cannot_fool_a_note(run, tmp_path):
    """Whoever rewrites the events and the stored tree to match gets past `verify`'s comparison of
    the two, not past a note kept elsewhere: it no longer extends (no position can be named then)."""
    at = story(run)
    note = take_checkpoint(run, tmp_path)
    table = Table(run.db)
    table.edit(at["Bruno 0"], b"Bruno 0", b"Bruno 5")
    table.sql("DELETE FROM chronicle_tree_nodes")
    table.sql("DELETE FROM chronicle_trees")
    code, report = witness(run, note)
    assert code == 1 and report["witness"]["extends"] is False and report["witness"]["position"] == 0


def test_a_write_of_the_tree_nodes_alone_is_reported(run, tmp_path):
    story(run)
    note = take_checkpoint(run, tmp_path)
    Table(run.db).sql("UPDATE chronicle_tree_nodes SET hash = ? WHERE level = 1 AND idx = 1", (b"\x00" * 32,))
    code, report = witness(run, note)
    assert code == 1 and report["witness"]["extends"]  # the events are still those the note covers
    assert any("nodes were edited" in p["problem"] for p in report["problems"])


# the memory of checkpoints --------------------------------------------------------------------------


def test_a_checkpoint_over_a_log_that_lost_its_newest_events_is_refused(run, tmp_path):
    at = story(run)
    take_checkpoint(run, tmp_path)
    table = Table(run.db)
    table.sql(f"DELETE FROM {table.name} WHERE {table.at} = ?", (at["Ann 2"],))
    refused = run("--json", "checkpoint")
    assert refused.exit_code == 1 and refused.stdout == ""
    assert f"#{at['Ann 2']} was removed" in json.loads(refused.stderr)["error"]["message"]


def test_a_checkpoint_over_a_rewritten_log_is_refused_once_the_tree_is_rebuilt_from_it(run, tmp_path):
    at = story(run)
    take_checkpoint(run, tmp_path)
    table = Table(run.db)
    table.edit(at["Bruno 0"], b"Bruno 0", b"Bruno 5")
    table.sql("DELETE FROM chronicle_tree_nodes")
    refused = run("checkpoint")
    assert refused.exit_code == 1 and "no longer extends the checkpoint" in refused.stderr


# notes that are not to be trusted -------------------------------------------------------------------


def test_an_altered_or_foreign_note_is_bad_input(run, tmp_path):
    story(run)
    note = take_checkpoint(run, tmp_path)
    text = (tmp_path / "note").read_text()
    lines = text.split("\n")
    altered = tmp_path / "altered"
    altered.write_text("\n".join([lines[0], str(int(lines[1]) - 1), *lines[2:]]))
    result = run("verify", "--witness", str(altered))
    assert result.exit_code == 2 and "does not verify" in result.stderr
    garbage = tmp_path / "garbage"
    garbage.write_text("hello\n")
    assert run("verify", "--witness", str(garbage)).exit_code == 2
    run("campaign", "new", "Other", "--system", "potestas")
    result = run("verify", "--witness", note, "--campaign", "Other")
    assert result.exit_code == 2 and "checkpoint of campaign" in result.stderr
    as_json = tmp_path / "note.json"
    as_json.write_text(run("--json", "checkpoint", "--campaign", "Greyhawk").stdout)
    assert run("verify", "--witness", str(as_json), "--campaign", "Greyhawk").exit_code == 0
