"""A signature binds what it signs, on SQLite and PostgreSQL: each forgery a holder of the database can make
with plain SQL, every hash chain recomputed, is named by `verify` at its position (and refused by `import`):
an event that is not what its signed document derives, a signature copied onto another event or another
character, a signed event duplicated, a nonce two commands carry, a signature stripped, a change of
participants no gm signed. A write after rows were removed or rewritten is refused in one sentence naming the
first changed position, and nothing is written."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import orjson
import pytest
from conftest import Run

from chronicle.domain.participants import ParticipantSet
from chronicle.ledger.trust.identity import load_or_create

from .edges import refused, stored
from .forge import append, content_hash, rechain, reseal, row
from .rows import delete

PARTICIPANT_SET = "chronicle.domain.participants:ParticipantSet"


def table(run) -> dict[str, int]:
    """Sartar (Potestas): Alice and Bob, a roll for each, a note on Bob. Their events' positions, by name."""
    run.json("campaign", "new", "Sartar", "--system", "potestas")
    run.json("character", "add", "Alice", "--stat", "fort=3")
    run.json("character", "add", "Bob", "--stat", "fort=2")
    run.json("roll", "d20", "--for", "Alice")
    run.json("roll", "d6", "--for", "Alice")
    run.json("roll", "d20", "--for", "Bob")
    run.json("note", "hello", "--for", "Bob")
    events = run.json("log")["events"]
    named = ["start", "alice", "bob", "alice d20", "alice d6", "bob d20", "note"]
    return {name: event["position"] for name, event in zip(named, events, strict=True)}


def problems(run, *options: str) -> list[dict]:
    done = run("--json", "verify", *options)
    assert done.exit_code in (0, 1), done.output
    return json.loads(done.stdout)["problems"]


def named(run, position: int, *words: str) -> str:
    """The problem `verify` names at POSITION, holding WORDS."""
    found = [p["problem"] for p in problems(run) if p["position"] == position]
    assert found, problems(run)
    for word in words:
        assert word in found[0], found[0]
    return found[0]


def test_a_notes_text_edited_under_its_old_document_is_named(run):
    at = table(run)
    rechain(run.db, at["note"], lambda state: state.update(text="goodbye"))
    named(run, at["note"], "not what its signed document (`note`) derives", "'goodbye'", "'hello'")


def test_one_rolls_signature_copied_onto_another_roll_is_named(run):
    at = table(run)
    *_, signed = row(run.db, at["alice d20"])
    rechain(run.db, at["bob d20"], lambda state: state.update(signed=signed["signed"]))
    named(run, at["bob d20"], f"its nonce was spent at #{at['alice d20']}")
    rechain(run.db, at["alice d6"], lambda state: state.update(signed=signed["signed"]))  # right after it
    named(run, at["alice d6"], "derives 1 event(s), not this one too")


def test_alices_signed_roll_copied_into_bobs_chain_is_named(run):
    at = table(run)
    _, _, topic, state = row(run.db, at["alice d20"])
    bob, *_ = row(run.db, at["bob"])
    forged = append(run.db, bob, topic, state)
    named(run, forged, "nonce was spent")
    assert run("verify").exit_code == 1


def test_a_forged_character_carrying_bobs_registration_signature_is_named(run):
    at = table(run)
    bob, _, topic, state = row(run.db, at["bob"])
    eve = uuid.uuid4()
    forged = append(run.db, eve, topic, {**state, "name": "Eve"})
    assert named(run, forged)  # its id is no name's, and Bob's nonce is spent: named either way


def test_a_character_whose_id_does_not_derive_is_named_and_replay_says_so_without_failing(run, monkeypatch):
    from .forge import before_signatures

    before_signatures(monkeypatch)  # a ledger from before signatures: no signature to copy, only an id to forge
    run.json("campaign", "new", "Sartar", "--system", "potestas")
    run.json("character", "add", "Alice", "--stat", "fort=3")
    alice, _, topic, state = row(run.db, 2)
    forged = append(run.db, uuid.uuid4(), topic, {**state, "name": "Eve"})
    named(run, forged, "character 'Eve' does not have the id its name gives")
    done = run("replay", "--ruling", "disable_margin=12")
    assert "internal" not in done.output and "Traceback" not in done.output
    assert done.exit_code in (0, 1, 2)


def test_a_signed_event_duplicated_as_the_next_version_is_named(run):
    at = table(run)
    bob, _, topic, state = row(run.db, at["note"])  # the log's newest event, Bob's
    forged = append(run.db, bob, topic, state)  # the same document, nonce and signature, at once after it
    named(run, forged, "derives 1 event(s), not this one too")


def test_a_signed_event_appended_at_its_chains_end_is_named(run):
    at = table(run)
    alice, _, topic, state = row(run.db, at["alice d20"])  # an older one of Alice's, after others' events
    forged = append(run.db, alice, topic, state)
    named(run, forged, f"its nonce was spent at #{at['alice d20']}")


def test_a_stripped_signature_is_named_at_its_own_position_even_the_first(run):
    at = table(run)
    rechain(run.db, at["note"], lambda state: state.pop("signed"))
    named(run, at["note"], "unsigned", "its signature was stripped")
    rechain(run.db, at["start"], lambda state: state.pop("signed"))
    found = problems(run)
    assert [p["position"] for p in found][:1] == [at["start"]] and "stripped" in found[0]["problem"]
    assert at["note"] in [p["position"] for p in problems(run, "--require-signatures")]


def test_an_unsigned_participant_change_makes_no_one_a_gm(run, tmp_path):
    at = table(run)
    campaign = uuid.UUID(run.json("campaign", "show")["id"])
    eve = load_or_create(tmp_path / "eve")
    *_, start = row(run.db, at["start"])
    change = ParticipantSet(
        originator_id=campaign,
        originator_version=2,
        timestamp=start["timestamp"],
        by="Eve",
        name="Eve",
        role="gm",
        key=eve.public_key_text,
    ).model_dump(mode="json", exclude={"originator_id", "originator_version"})
    forged = append(run.db, campaign, PARTICIPANT_SET, change)
    named(run, forged, "unsigned")
    assert [p["name"] for p in run.json("participant", "list")["participants"]] == ["gm"]


def test_a_participant_change_signed_by_a_player_counts_for_nothing(run, tmp_path):
    from chronicle.ledger.trust.signing import sign

    at = table(run)
    ann = load_or_create(tmp_path / "ann")
    run.json("participant", "add", "Ann", "--role", "player", "--plays", "Alice", "--key", ann.public_key_text)
    campaign = run.json("campaign", "show")["id"]
    *_, start = row(run.db, at["start"])
    document = {"command": "participant add", "name": "Ann", "role": "gm", "key": ann.public_key_text}
    made = sign(ann, campaign, document, "ann-promotes-herself")
    change = {
        "timestamp": start["timestamp"],
        "by": "Ann",
        "origin": None,
        "signed": made.model_dump(mode="json"),
        "name": "Ann",
        "role": "gm",
        "plays": [],
        "key": ann.public_key_text,
        "reason": "",
    }
    forged = append(run.db, uuid.UUID(campaign), PARTICIPANT_SET, change)
    named(run, forged, "Ann is a player: participant add needs a gm")
    roles = {p["name"]: p["role"] for p in run.json("participant", "list")["participants"]}
    assert roles == {"gm": "gm", "Ann": "player"}


def test_a_nonce_two_commands_carry_in_an_export_is_refused_by_import(run, tmp_path):
    table(run)
    lines = [orjson.loads(line) for line in run("export").stdout.splitlines()]
    note = next(line for line in lines if line["topic"].endswith(":NoteTaken"))
    roll = next(line for line in lines if line["topic"].endswith(":DiceRolled"))
    roll["state"]["signed"] = note["state"]["signed"]  # a signature copied, every hash made again
    reseal(lines, roll)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    copy = Run(str(tmp_path / "copy.db"))
    refused(copy("import", str(path)), 1, "the file does not verify", "nothing was imported")
    assert stored(copy.db) == 0


def test_a_note_edited_in_an_export_is_refused_by_import(run, tmp_path):
    table(run)
    lines = [orjson.loads(line) for line in run("export").stdout.splitlines()]
    note = next(line for line in lines if line["topic"].endswith(":NoteTaken"))
    note["state"]["text"] = "goodbye"
    reseal(lines, note)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    copy = Run(str(tmp_path / "copy.db"))
    refused(copy("import", str(path)), 1, "not what its signed document (`note`) derives")
    assert stored(copy.db) == 0


def test_a_wholly_unsigned_campaign_imports_as_a_ledger_from_before_signatures(run, tmp_path, monkeypatch):
    """An export with no signature at all is what a chronicle from before signatures wrote: it imports (its
    events counted unsigned, and named by `verify --require-signatures`); one that names its creator's key,
    and so comes from a chronicle that signs, must be signed throughout."""
    from .forge import before_signatures

    with monkeypatch.context() as old:
        before_signatures(old)
        source = Run(str(tmp_path / "old.db"))
        source.json("campaign", "new", "Lankhmar", "--system", "adnd2e")
        source.json("character", "add", "Fafhrd", "--stat", "hp=20")
    path = tmp_path / "old.jsonl"
    path.write_text(source("export").stdout)
    assert run.json("import", str(path))["events"] == 2
    report = run.json("--campaign", "Lankhmar", "verify")
    assert report["ok"] and report["unsigned"] == 2
    assert run("--campaign", "Lankhmar", "verify", "--require-signatures").exit_code == 1
    lines = [orjson.loads(line) for line in path.read_text().splitlines()]
    lines[0]["state"]["gm_key"] = load_or_create().public_key_text  # claims a signing creator, signs nothing
    reseal(lines, lines[0])
    keyed = tmp_path / "keyed.jsonl"
    keyed.write_bytes(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    copy = Run(str(tmp_path / "copy.db"))
    refused(copy("import", str(keyed)), 1, "unsigned", "stripped")


def test_a_write_after_a_row_was_removed_is_refused_naming_it(run):
    at = table(run)
    delete(run.db, at["alice"])
    before = stored(run.db)
    refused(run("roll", "d20"), 1, f"#{at['alice']} was removed", "the checkpoint")
    refused(run("note", "later", "--for", "Bob"), 1, f"#{at['alice']} was removed")
    assert stored(run.db) == before
    assert at["alice"] in [p["position"] for p in problems(run)]


def test_a_write_after_a_row_was_rewritten_is_refused_naming_it(run):
    at = table(run)
    rechain(run.db, at["bob d20"], lambda state: state.update(reason="forged"))
    before = stored(run.db)
    refused(run("roll", "d20", "--for", "Alice"), 1, f"#{at['bob d20']} was rewritten")
    assert stored(run.db) == before


def test_a_record_missing_a_version_is_one_clear_refusal_for_whoever_saw_nothing(run, tmp_path, monkeypatch):
    """A user whose chronicle remembers nothing of the campaign still gets a sentence, never a library's error."""
    at = table(run)
    delete(run.db, at["alice d20"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (elsewhere / "identity.key").write_bytes((Path(_home()) / "identity.key").read_bytes())
    (elsewhere / "identity.key").chmod(0o600)
    monkeypatch.setenv("CHRONICLE_HOME", str(elsewhere))
    before = stored(run.db)
    done = run("roll", "d20", "--for", "Alice")
    refused(done, 1, "Alice's record", "an event was removed or moved", "chronicle verify")
    assert "OriginatorVersionError" not in done.output
    for command in (("character", "show", "Alice"), ("log", "Alice")):
        shown = run(*command)
        assert "internal" not in shown.output and "Error:" not in shown.stdout
    assert stored(run.db) == before
    # the read models cannot be folded from a log missing an event: `rebuild` says so, and leaves them
    refused(run("rebuild"), 1, "the log no longer holds every event of an aggregate", "chronicle verify")


def test_an_edit_named_by_verify_leaves_every_read_and_rebuild_answering(run):
    at = table(run)
    rechain(run.db, at["note"], lambda state: state.update(text="goodbye"))
    for command in (("log",), ("character", "list"), ("character", "show", "Bob"), ("campaign", "show")):
        done = run(*command)
        assert "internal" not in done.output, done.output
    assert run("rebuild").exit_code == 0


def test_a_forgery_hashes_as_chronicle_seals(run):
    """(The forging helper's seal is chronicle's own: an append without a change verifies but for what it copies.)"""
    at = table(run)
    _, version, topic, state = row(run.db, at["note"])
    bob, *_ = row(run.db, at["bob"])
    assert state["hash"] == content_hash(topic, bob, version, state)


def _home() -> str:
    import os

    return os.environ["CHRONICLE_HOME"]


@pytest.fixture(autouse=True)
def _quiet_home(tmp_path, monkeypatch):
    """Each test its own user folder (what it remembers of a campaign is its own)."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("CHRONICLE_HOME", str(home))


def test_worker_processes_name_what_one_process_names(run):
    """`verify` on long logs runs in worker processes, each folding every event and running again the commands
    whose first event is of its share: an attack acting on two characters of two shares, and forgeries on
    either side, are named as one process names them."""
    at = table(run)
    run.json("character", "set", "Alice", "weapons=sword:damage=1d8", "--reason", "armed")
    for _ in range(6):
        run.json("attack", "Alice", "Bob", "--force")
        run.json("attack", "Bob", "Alice", "--force", "--weapon", "club:damage=1d6")
    assert [p for p in problems(run, "--workers", "3")] == []
    rechain(run.db, at["note"], lambda state: state.update(text="goodbye"))
    _, _, topic, state = row(run.db, at["alice d20"])
    bob, *_ = row(run.db, at["bob"])
    append(run.db, bob, topic, state)
    alone = problems(run, "--workers", "1")
    assert len(alone) >= 2
    for workers in ("2", "3"):
        assert problems(run, "--workers", workers) == alone
