"""Many tables on one ledger: what one campaign's page costs in SQL statements does not grow with the number
of campaigns the ledger holds. The same pages are read with 2 campaigns and again after
10 more; each page's statements are counted as test_page_queries.py counts them (a trace on every SQLite
connection opened while counting)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sql_trace import trace_statements
from starlette.testclient import TestClient

from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading
from chronicle.ledger.application.ledger import Ledger

PAGES = ("/c/T000", "/c/T000/log", "/c/T000/C000")
FEW, MORE = 2, 12


def add_campaigns(db: str, start: int, end: int) -> None:
    """Campaigns T{start}..T{end - 1}, each with two characters and a few events."""
    ledger = Ledger(db, by="gm", seed=5)
    try:
        for number in range(start, end):
            ledger.campaign = None
            ledger.execute_document({"command": "campaign new", "name": f"T{number:03d}", "system": "potestas"})
            ledger.campaign = f"T{number:03d}"
            for who in (f"C{number:03d}", f"D{number:03d}"):
                ledger.execute_document({"command": "character add", "name": who, "stat": ["fort=40"]})
                ledger.execute_document({"command": "injure", "name": who, "damage": 3, "save_roll": 15})
    finally:
        ledger.close()


@contextmanager
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    statements: list[str] = []
    with monkeypatch.context() as patched:
        trace_statements(patched, statements)
        yield statements


def statements_of_pages(db: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The statements of each page, read the second time (the first reads what any first page reads once)."""
    with counting(monkeypatch) as statements:
        data = Reading(db)
        try:
            data.warm()
            client = TestClient(build(data, print))  # (its lifespan not started: no follower polls the log)
            found = {}
            for page in PAGES:
                assert client.get(page).status_code == 200, page
                statements.clear()
                answer = client.get(page)
                assert answer.status_code == 200, page
                found[page] = [s for s in statements if s not in ("BEGIN", "COMMIT", "ROLLBACK")]
        finally:
            data.close()
    return found


def test_a_campaigns_pages_cost_the_same_statements_with_12_campaigns_as_with_2(tmp_path, monkeypatch):
    db = str(tmp_path / "tables.db")
    add_campaigns(db, 0, FEW)
    few = statements_of_pages(db, monkeypatch)
    add_campaigns(db, FEW, MORE)
    more = statements_of_pages(db, monkeypatch)
    grown = {page: (len(few[page]), len(more[page])) for page in PAGES if len(more[page]) > len(few[page])}
    assert not grown, "statements of a page, with 2 campaigns and with 12: " + ", ".join(
        f"{page} {before} -> {after}" for page, (before, after) in grown.items()
    )
