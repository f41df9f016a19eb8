"""A thousand tables on one ledger: what a write reads to find its campaign, and what a server's `/events`
follower reads at each look, do not grow with the number of campaigns the ledger holds. The other campaigns
are rows of the index alone (as many as a busy ledger's), the rows read from it are counted."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from reliability.edges import sql

from chronicle.domain.errors import NotFound
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.application.queries.devices import ParticipantOf, SignedFor
from chronicle.ledger.application.queries.pages import Appended
from chronicle.projections.store import ViewStore

KEY = "ed25519:" + "A" * 43 + "="


@pytest.fixture
def table(run) -> str:
    """A campaign with a character, written to once: its id."""
    run.json("campaign", "new", "Greyhawk", "--system", "potestas")
    run.json("character", "add", "Brand", "--stat", "fort=40")
    run.json("injure", "Brand", "--damage", "1", "--save-roll", "15")
    return str(run.json("campaign", "show")["id"])


def other_campaigns(db: str, upto: int) -> None:
    """Index rows of other campaigns, until the index holds UPTO of them (never chosen: Greyhawk stays current)."""
    (held,) = sql(db, "SELECT COUNT(*) FROM chronicle_campaigns")
    for number in range(held[0], upto):
        campaign = str(uuid.uuid4())
        sql(
            db,
            "INSERT INTO chronicle_campaigns (id, name, system, position, chosen, archived) VALUES (?, ?, ?, ?, 0, 0)",
            (campaign, f"Table {number:04d}", "potestas", 10_000_000 + number),
        )
        sql(
            db,
            "INSERT INTO chronicle_characters (id, campaign_id, name, system, kind, position, retired)"
            " VALUES (?, ?, ?, ?, ?, ?, 0)",
            (str(uuid.uuid4()), campaign, f"Hero {number:04d}", "potestas", "character", 10_000_000 + number),
        )


@contextmanager
def rows_read(monkeypatch: pytest.MonkeyPatch, table_name: str) -> Iterator[list[int]]:
    """The number of rows each query of TABLE_NAME returns, while the patch holds."""
    counted: list[int] = []
    query = ViewStore.query

    def counting(self, statement, params=()):
        found = query(self, statement, params)
        if table_name in statement:
            counted.append(len(found))
        return found

    with monkeypatch.context() as patched:
        patched.setattr(ViewStore, "query", counting)
        yield counted


def campaign_rows_of_a_write(db: str, campaign: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """The index's campaign rows a write reads, with the queries a signed write's server asks beside it."""
    ledger = Ledger(db, by="gm", campaign="Greyhawk")
    try:
        ledger.execute_document({"command": "injure", "name": "Brand", "damage": 1, "save_roll": 15})
        with rows_read(monkeypatch, "chronicle_campaigns") as counted:
            ledger.ask(SignedFor(command="injure", campaign=campaign, key=KEY))
            ledger.ask(ParticipantOf(campaign=campaign, key=KEY))
            ledger.execute_document({"command": "injure", "name": "Brand", "damage": 1, "save_roll": 15})
        return sum(counted)
    finally:
        ledger.close()


def test_finding_a_writes_campaign_reads_the_same_rows_with_10_or_1000_campaigns(run, table, monkeypatch):
    read = {}
    for count in (10, 1000):
        other_campaigns(run.db, count)
        read[count] = campaign_rows_of_a_write(run.db, table, monkeypatch)
    assert read[10] == read[1000] < 10


def test_a_campaign_is_found_by_its_name_in_another_case_and_an_unknown_one_is_not(run, table):
    other_campaigns(run.db, 10)
    assert run("--campaign", "greyhawk", "injure", "Brand", "--damage", "1", "--save-roll", "15").exit_code == 0
    missing = run("--campaign", "Greyhawke", "injure", "Brand", "--damage", "1", "--save-roll", "15")
    assert missing.exit_code == 2 and "did you mean 'Greyhawk'?" in missing.stderr
    ledger = Ledger(run.db, by="gm")
    try:
        with pytest.raises(NotFound, match="no campaign with that id"):
            ledger.ask(SignedFor(command="injure", campaign=str(uuid.uuid4()), key=KEY))
        assert ledger.ask(SignedFor(command="injure", campaign=table, key=KEY)).document == {
            "id": table,
            "name": "Greyhawk",
        }
    finally:
        ledger.close()


def a_look(db: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[dict]]:
    """The names' rows a follower's look at the log's last three events reads, and the events it returns."""
    ledger = Ledger(db, by="gm", campaign="Greyhawk")
    try:
        ledger.execute_document({"command": "injure", "name": "Brand", "damage": 1, "save_roll": 15})
        last = ledger.app.feed.last()
        with rows_read(monkeypatch, "chronicle_c") as counted:  # (chronicle_campaigns, chronicle_characters)
            events = ledger.ask(Appended(after=last - 3)).document["events"]
        return sum(counted), events
    finally:
        ledger.close()


def test_a_followers_look_reads_the_same_names_with_10_or_1000_campaigns(run, table, monkeypatch):
    read = {}
    for count in (10, 1000):
        other_campaigns(run.db, count)
        read[count], events = a_look(run.db, monkeypatch)
        assert [event["campaign"] for event in events] == ["Greyhawk"] * 3
        ((brand,),) = sql(run.db, "SELECT id FROM chronicle_characters WHERE name = ?", ("Brand",))
        assert [event["character_id"] for event in events] == [brand] * 3
    assert read[10] == read[1000] <= 2


def test_a_followers_look_names_each_events_campaign_and_character_as_before(run, table):
    run.json("campaign", "new", "Blackmoor", "--system", "potestas")
    run.json("character", "add", "Aric", "--stat", "fort=40", "--campaign", "Blackmoor")
    run.json("--campaign", "Greyhawk", "injure", "Brand", "--damage", "1", "--save-roll", "15")
    ledger = Ledger(run.db, by="gm")
    try:
        events = ledger.ask(Appended(after=0)).document["events"]
    finally:
        ledger.close()
    shown = [(event["campaign"], event["character_id"] is not None) for event in events]
    assert shown == [("Greyhawk", False), ("Greyhawk", True), ("Greyhawk", True)] + [
        ("Blackmoor", False),
        ("Blackmoor", True),
        ("Greyhawk", True),
    ]
