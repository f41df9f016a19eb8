"""Schema evolution: events written by older versions keep loading, projecting and verifying.

`tests/fixtures/ledger-v1.db` was written by `tests/fixtures/make_fixture.py` (one campaign per
rule system: campaigns, characters, rolls, rulings, an amendment and each system's resolutions);
the current code must read it exactly as it read it then. The unit tests below show how a changed
event class upcasts what older versions stored (`class_version` + `upcast_v1_v2`).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar
from uuid import UUID, uuid4

import pytest
from conftest import Run
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import _topic_cache, get_topic

from chronicle.domain.growth import NoteTaken as Note
from chronicle.ledger.bulk.transfer import closing_line
from chronicle.ledger.store.chronicle import Chronicle, open_ledger
from chronicle.ledger.store.mapper import PydanticMapper

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ledger-v1.expected.json").read_text())


@pytest.fixture
def old_ledger(tmp_path) -> Run:
    copy = tmp_path / "ledger-v1.db"  # reading catches up read models: never touch the committed file
    shutil.copyfile(FIXTURES / "ledger-v1.db", copy)
    return Run(str(copy))


@pytest.mark.parametrize("campaign", sorted(EXPECTED))
def test_the_v1_fixture_still_loads_projects_and_verifies(old_ledger, campaign):
    expected = EXPECTED[campaign]
    run = lambda *args: old_ledger.json("--campaign", campaign, *args)  # noqa: E731
    assert len(run("log")["events"]) == expected["events"]
    for name, then in expected["characters"].items():
        now = run("character", "show", name)
        assert (now["name"], now["system"], now["version"]) == (then["name"], then["system"], then["version"])
        assert {k: now["condition"].get(k) for k in then["condition"]} == then["condition"]
        assert {k: now["sheet"].get(k) for k in then["sheet"]} == then["sheet"]
    events = expected["events"]  # recorded before chronicle signed what it records: unsigned, and still ok
    assert run("verify") == {"ok": True, "events": events, "signed": 0, "unsigned": events, "problems": []}


def test_the_v1_fixture_takes_new_events(old_ledger):
    rolled = old_ledger.json("--campaign", "Greyhawk", "roll", "d20", "--for", "Bruno")
    assert rolled["version"] == EXPECTED["Greyhawk"]["characters"]["Bruno"]["version"] + 1
    assert old_ledger.json("--campaign", "Greyhawk", "verify")["ok"] is True


def _page_size(db: str) -> int:
    connection = sqlite3.connect(db)
    try:
        return connection.execute("PRAGMA page_size").fetchone()[0]
    finally:
        connection.close()


def test_a_new_ledger_has_16k_pages_and_an_old_one_keeps_its_own(old_ledger, tmp_path):
    new = Run(str(tmp_path / "new.db"))
    new.json("campaign", "new", "Fresh", "--system", "adnd2e")
    assert _page_size(new.db) == 16384
    old_ledger.json("--campaign", "Greyhawk", "roll", "d20", "--for", "Bruno")
    assert _page_size(old_ledger.db) == 4096  # only a database's first write sets it: v1 files stay as they are


# A test-only event class as it evolves: v1 was stored, then v2 added `mood` under the same name
# (so the same topic); reading old rows resolves the topic to the v2 class, which upcasts them.
# A kind of note, so the read models fold it as they fold notes.
class NoteTakenV1(Note):
    text: str


# the topic is the module and the qualified name: v1's is v2's, as when the module held v1 under that name
NoteTakenV1.__qualname__ = "NoteTaken"


class NoteTaken(Note):  # the same class, one version later
    text: str
    mood: str

    class_version: ClassVar[int] = 2

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        state["mood"] = "calm" if "!" not in state["text"] else "excited"


NoteTakenV2 = NoteTaken


def mapper_of(app: Chronicle) -> PydanticMapper:
    """The application's mapper, as the ledger makes it (the library's type is its base class)."""
    assert isinstance(app.mapper, PydanticMapper)
    return app.mapper


def stored_v1(app: Chronicle, text: str) -> StoredEvent:
    event = NoteTakenV1(
        originator_id=uuid4(), originator_version=2, timestamp=datetime.now(UTC), by="gm", prev_hash="f" * 64, text=text
    ).sealed()
    stored = app.mapper.to_stored_event(event)
    assert "class_version" not in mapper_of(app).decode_state(stored.state)
    _topic_cache.pop(stored.topic)  # a later process: the topic now resolves to the module's v2 class
    return stored


def test_old_stored_state_is_upcast_and_its_hash_still_checks(tmp_path):
    app = open_ledger(str(tmp_path / "ledger.db"))
    try:
        calm, excited = (
            app.mapper.to_domain_event(stored_v1(app, "rest")),
            app.mapper.to_domain_event(stored_v1(app, "run!")),
        )
        assert isinstance(calm, NoteTakenV2) and isinstance(excited, NoteTakenV2)
        assert (calm.mood, excited.mood) == ("calm", "excited")
        assert calm.content_hash() == calm.hash  # verified over the content as recorded

        again = app.mapper.to_domain_event(app.mapper.to_stored_event(calm))  # v2 stores class_version 2
        assert isinstance(again, NoteTakenV2) and again.mood == "calm"
        assert "class_version" in mapper_of(app).decode_state(app.mapper.to_stored_event(calm).state)
    finally:
        app.close()


def test_a_tampered_old_event_still_fails_its_hash_after_upcasting(tmp_path):
    app = open_ledger(str(tmp_path / "ledger.db"))
    try:
        stored = stored_v1(app, "rest")
        mapper = mapper_of(app)
        state = mapper.decode_state(stored.state)
        state["text"] = "forged"
        forged = StoredEvent(
            stored.originator_id,
            stored.originator_version,
            stored.topic,
            mapper._seal(mapper.transcoder.encode(state)),
        )
        event = mapper.to_domain_event(forged)
        assert isinstance(event, NoteTakenV2)
        assert event.mood == "calm" and event.content_hash() != event.hash
    finally:
        app.close()


def test_an_export_holding_an_old_event_version_imports_and_verifies(run_sqlite, tmp_path):
    run_sqlite("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run_sqlite("character", "add", "Bruno", "--stat", "hp=30")
    lines = [json.loads(line) for line in run_sqlite("export").stdout.splitlines()][:-1]  # without its closing line
    bruno = lines[-1]
    note = NoteTakenV1(
        originator_id=bruno["originator_id"],
        originator_version=2,
        timestamp=datetime.now(UTC),
        by="gm",
        prev_hash=bruno["state"]["hash"],
        text="run!",
    ).sealed()
    lines.append(
        {
            "id": "-",
            "topic": get_topic(NoteTakenV1),
            "originator_id": bruno["originator_id"],
            "originator_version": 2,
            "state": note.model_dump(mode="json", exclude={"originator_id", "originator_version"}),
        }
    )
    _topic_cache.pop(lines[-1]["topic"])  # read by a later version, where NoteTaken is at v2
    exported = tmp_path / "old.jsonl"
    heads = {UUID(line["originator_id"]): (line["originator_version"], line["state"]["hash"]) for line in lines}
    exported.write_text("".join(json.dumps(line) + "\n" for line in lines) + closing_line(heads).decode() + "\n")

    copy = Run(str(tmp_path / "copy.db"))
    assert copy.json("import", str(exported))["events"] == 3
    assert copy.json("verify")["ok"] is True
    assert copy.json("log", "Bruno")["events"][-1]["data"]["mood"] == "excited"
