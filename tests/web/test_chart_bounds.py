"""Status chart denial of service: an award's amount is bounded (a clear exit 2 past 1,000,000
either way, nothing written), the chart's work is bounded whatever the totals and the length of the series
(a ledger holding an award of 10^12 recorded before the bound still draws in a moment), and `serve` reads
and renders pages off its event loop, so one slow page does not stop the others."""

from __future__ import annotations

import re
import threading
import time

import pytest
from starlette.testclient import TestClient

import chronicle.cli.web.pages as web_pages
from chronicle.cli.chart import MOST_POINTS, status_chart
from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading
from chronicle.domain.pendragon import StatusAwarded
from chronicle.domain.pendragon.status import AwardInputs
from chronicle.ledger.application.ledger import Ledger


def lines_of(svg: str) -> int:
    return svg.count("<line ")


@pytest.mark.parametrize("amount", ["1000001", "-1000001", "1000000000000"])
def test_an_award_beyond_a_million_either_way_is_bad_input_and_writes_nothing(table, amount):
    before = table.run.json("log")["events"]
    done = table.run("status", "award", "Vasana", "--amount", amount, "--reason", "a boast")
    assert done.exit_code == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "at most 1,000,000 Status either way" in done.stderr
    assert table.run.json("log")["events"] == before


def test_an_award_of_a_million_is_taken_and_the_help_says_so(table):
    assert (
        table.run.json("status", "award", "Vasana", "--amount", "1000000", "--reason", "a saga")["amount"] == 1_000_000
    )
    assert "at most 1,000,000 either way" in " ".join(table.run("status", "award", "--help").stdout.split())
    schema = table.run.json("commands")["commands"]["status award"]["schema"]["properties"]["amount"]
    assert {"minimum": -1_000_000, "maximum": 1_000_000}.items() <= schema["anyOf"][0].items()


@pytest.mark.parametrize("total", [10**4, 10**12, 2**63 - 1])
def test_the_chart_draws_a_few_lines_whatever_the_totals(total):
    started = time.monotonic()
    svg = status_chart([{"position": 2, "total": 600, "spent": False}, {"position": 3, "total": total, "spent": True}])
    assert time.monotonic() - started < 0.5
    assert 3 <= lines_of(svg) <= 14  # the axes and at most about ten lines across
    assert f"Status {total:,} (an increase spent)" in svg


def test_the_chart_of_a_long_series_draws_at_most_its_points():
    series = [{"position": i, "total": 100 * i, "spent": i % 1000 == 0} for i in range(1, 200_001)]
    svg = status_chart(series)
    polyline = re.search(r'<polyline [^>]*points="([^"]*)"', svg)
    assert polyline is not None, "the chart draws its line"
    points = polyline.group(1).split()
    assert len(points) <= MOST_POINTS and svg.count("<circle") <= MOST_POINTS
    assert "Status 20,000,000" in svg  # the last point is drawn
    assert f"{len(points)} of its 200000 changes are drawn" in svg


def test_a_character_with_an_award_recorded_before_the_bound_is_drawn_at_once(table, run, tmp_path):
    """Events keep the amounts they were recorded with: the page and the report draw them, bounded."""
    ledger = Ledger(table.db, by="gm")
    try:
        ledger.write(
            lambda session: session.resolve(
                session.character("Vasana"), StatusAwarded, AwardInputs(amount=10**12, reason="an old boast")
            )
        )
    finally:
        ledger.close()
    data = Reading(table.db)
    try:
        with TestClient(build(data, table.said.append)) as client:
            started = time.monotonic()
            page = client.get(table.character_url(client, "Vasana"))
            assert page.status_code == 200 and time.monotonic() - started < 5
    finally:
        data.close()
    chart = page.text.split('<svg class="chart"')[1].split("</svg>")[0]
    assert "Status 1,000,000,000,650" in chart and lines_of(chart) <= 14
    report = tmp_path / "vasana.html"
    started = time.monotonic()
    assert run("report", "Vasana", "--html", str(report)).exit_code == 0 and time.monotonic() - started < 10
    assert lines_of(report.read_text().split('<svg class="chart"')[1].split("</svg>")[0]) <= 14


def test_a_slow_page_does_not_stop_the_server(table, monkeypatch):
    """The chart is drawn while the page renders: made slow here, the server answers meanwhile."""
    draw = web_pages.status_chart

    def slow(series: list) -> str:
        time.sleep(2)
        return draw(series)

    monkeypatch.setattr(web_pages, "status_chart", slow)
    data = Reading(table.db)
    try:
        with TestClient(build(data, table.said.append)) as client:
            vasana = table.character_url(client, "Vasana")
            done: list[int] = []
            page = threading.Thread(target=lambda: done.append(client.get(vasana).status_code))
            page.start()
            time.sleep(0.3)  # the page is being rendered
            started = time.monotonic()
            assert client.get("/static/table.css").status_code == 200
            answered = time.monotonic() - started
            page.join()
    finally:
        data.close()
    assert done == [200] and answered < 1.0
