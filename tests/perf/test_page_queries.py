"""The table view's character page and `report` read rows: a PenDragon Pass character with 10,000 Status
events costs a page as many SQL statements as one with 100, and neither the page nor the report folds an
event or restores a character (the Status series and the wounds are rows of the changes read model)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import pytest
from sql_trace import trace_statements
from starlette.testclient import TestClient

from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading
from chronicle.domain.character import Character
from chronicle.domain.character_state import CharacterState
from chronicle.domain.events import Event
from chronicle.domain.pendragon import IncreaseSpent, StatusAwarded, parse_sheet
from chronicle.domain.pendragon.status import AwardInputs, IncreaseInputs
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.application.session import Session
from chronicle.ledger.application.views.report import character_report
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.ledger.store.mapper import PydanticMapper, StoredRow

LONG, SHORT = 10_000, 100


def saga(db: str) -> None:
    """Vasana: LONG Status awards (an increase spent after every tenth); Arnulf: SHORT of them. Saved in one
    unit of work as a batch saves, the sentences `log` tells kept as a command keeps them."""

    def play(session: Session) -> None:
        session.start_campaign("Sartar", "pendragon-pass")
        for name, awards in (("Vasana", LONG), ("Arnulf", SHORT)):
            character = session.add_character(name, parse_sheet({"siz": "15", "con": "13", "valorous": "17"}))
            for i in range(awards):
                session.resolve(character, StatusAwarded, AwardInputs(amount=100, reason=f"deed {i}"))
                if i % 10 == 9:
                    session.resolve(character, IncreaseSpent, IncreaseInputs(what="valorous"))

    ledger = Ledger(db, by="gm", seed=3)
    try:
        ledger.write(play)
    finally:
        ledger.close()


class Counted:
    def __init__(self) -> None:
        self.statements: list[str] = []
        self.folds = 0
        self.restores = 0
        self.decoded = 0

    def clear(self) -> None:
        self.statements.clear()
        self.folds = self.restores = self.decoded = 0


@contextmanager
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    """Every SQL statement of every connection opened from here, and every fold of an event onto a
    character, restore of a character from its state, and decoding of a stored event."""
    counted = Counted()
    mutate, restore, decode = Event.mutate, CharacterState.restore, PydanticMapper.to_domain_event

    def folded(self: Event, aggregate: object) -> object:
        found = mutate(self, aggregate)
        counted.folds += isinstance(found, Character)  # (a command's session still loads its campaign)
        return found

    def restored(self: CharacterState, cls: type[Any], ident: UUID, version: int) -> Any:
        counted.restores += 1
        return restore(self, cls, ident, version)

    def decoding(self: PydanticMapper, stored: StoredRow) -> Any:
        counted.decoded += 1
        return decode(self, stored)

    trace_statements(monkeypatch, counted.statements)
    monkeypatch.setattr(Event, "mutate", folded)
    monkeypatch.setattr(CharacterState, "restore", restored)
    monkeypatch.setattr(PydanticMapper, "to_domain_event", decoding)
    yield counted


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("pages") / "long.db")
    saga(db)
    return db


def test_a_character_page_of_10000_status_events_reads_rows_only(ledger, monkeypatch):
    with counting(monkeypatch) as counted:
        data = Reading(ledger)
        try:
            data.warm()  # `serve` brings the read models up to date before the first page
            client = TestClient(build(data, print))  # (its lifespan not started: no follower polls the log)
            front = client.get("/").text
            pages = {}
            for name in ("Vasana", "Arnulf"):
                link = re.search(rf'href="(/c/[^"?]+)">{name}<', front)
                assert link is not None, f"no link to {name}'s page"
                url = link.group(1)
                counted.clear()
                page = client.get(url)
                assert page.status_code == 200
                pages[name] = (page.text, list(counted.statements), counted.folds, counted.restores)
                assert counted.decoded == 0, f"{name}'s page decoded {counted.decoded} events"
        finally:
            data.close()
    long_page, long_statements, folds, restores = pages["Vasana"]
    assert folds == 0 and restores == 0
    assert len(long_statements) == len(pages["Arnulf"][1]), "\n".join(long_statements)
    queries = [s for s in long_statements if s not in ("BEGIN", "COMMIT", "ROLLBACK")]
    assert len(queries) <= 10, "\n".join(queries)  # its row, its newest 40 events, its Status series
    assert "Status <strong>1,000,000</strong>" in long_page  # 10,000 awards of 100
    chart = long_page.split("<svg")[1].split("</svg>")[0]
    polyline = re.search(r'<polyline [^>]*points="([^"]*)"', long_page)
    assert polyline is not None, "the Status chart draws its line"
    points = polyline.group(1).split()
    assert 100 <= len(points) <= 240  # sampled by the query: the chart's work is bounded
    assert "#" in chart and "an increase spent" in chart
    story = long_page.split("<h2>Story</h2>")[1]
    assert story.count("<li") == 40 and "for &#34;deed 9999&#34;" in story


def test_the_report_of_10000_status_events_folds_nothing(ledger, monkeypatch):
    app = open_ledger(ledger)
    try:
        character_report(Session(app, None, "gm"), "Vasana", data=False)  # the changes model caught up once
        with counting(monkeypatch) as counted:
            report = character_report(Session(app, None, "gm"), "Vasana", data=False)
    finally:
        app.close()
    assert counted.folds == 0 and counted.restores == 0
    assert len(report["status"]) == LONG + LONG // 10  # every award and every increase spent
    assert report["status"][-1]["total"] == 1_000_000 and report["status"][-1]["summary"].startswith("Vasana")
    assert sum(p["spent"] for p in report["status"]) == LONG // 10
