"""The Status chart's axis: its x axis names the session each change was recorded in ("S3"), or
its day outside sessions, never a log position; crowded labels are thinned out so that none meets another
and their number stays bounded; the series it draws is the changes read model's with each change's session
and time (on SQLite and PostgreSQL), read without folding anything."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from chronicle.cli.chart import FONT, WIDTH, status_chart, text_width
from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading
from chronicle.ledger.application import clock
from chronicle.ledger.application.session import Session
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.projections.changes import Changes
from chronicle.projections.queries import status_series

MARCH = datetime(2026, 3, 1, 19, tzinfo=UTC)
TEXT = re.compile(
    r'<text x="([-\d.]+)" y="([-\d.]+)" text-anchor="(\w+)" font-size="\d+" class="([^"]+)"[^>]*>([^<]*)<'
)


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Days as the local time zone says them: UTC here, so that the days below are the days shown."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def texts(svg: str, css: str | None = None) -> list[tuple[float, float, str, str]]:
    """Each text of the drawing (of one class) as `(x, y, anchor, text)`."""
    return [
        (float(x), float(y), anchor, html.unescape(text))
        for x, y, anchor, found, text in TEXT.findall(svg)
        if css is None or found == css
    ]


def places(svg: str) -> list[str]:
    """The x axis's labels, left to right."""
    return [text for *_, text in sorted(texts(svg, "tick place"))]


def series(count: int, session: Callable[[int], int | None], day: Callable[[int], int]) -> list[dict[str, Any]]:
    return [
        {
            "position": 10 + 3 * i,
            "total": 100 * i,
            "spent": i % 7 == 6,
            "session": session(i),
            "time": (MARCH + timedelta(days=day(i))).isoformat(),
        }
        for i in range(count)
    ]


def test_the_x_axis_names_sessions_never_log_positions():
    svg = status_chart(series(9, lambda i: i // 3 + 1, lambda i: i // 3 * 7))
    assert places(svg) == ["S1", "S2", "S3"]
    assert [text for *_, text in texts(svg, "tick caption")] == ["Session of each change"]
    assert not [text for *_, text in texts(svg) if re.search(r"#\d", text)]
    assert "log position" not in svg


def test_outside_sessions_the_x_axis_names_the_day():
    svg = status_chart(series(6, lambda i: None, lambda i: i // 2 * 3))
    assert places(svg) == ["1 Mar", "4 Mar", "7 Mar"]
    assert [text for *_, text in texts(svg, "tick caption")] == ["Day of each change"]
    between = status_chart(series(6, lambda i: None if i in (2, 3) else i // 4 + 1, lambda i: i))
    assert places(between) == ["S1", "3 Mar", "4 Mar", "S2"]
    assert "Session of each change, or its day" in between


def test_a_series_over_more_than_a_year_names_the_years():
    svg = status_chart(series(3, lambda i: None, lambda i: 200 * i))
    assert places(svg) == ["1 Mar 2026", "17 Sep 2026", "5 Apr 2027"]


@pytest.mark.parametrize(
    "count, session, day",
    [
        (240, lambda i: i + 1, lambda i: i),  # a session a change: 240 sessions
        (240, lambda i: i // 4 + 1, lambda i: i // 4),  # 60 sessions
        (240, lambda i: None, lambda i: 2 * i),  # a day a change, over more than a year
        (24, lambda i: None, lambda i: i),  # every point labelled with its value, where it fits
    ],
    ids=["240-sessions", "60-sessions", "240-days", "24-days"],
)
def test_crowded_labels_are_thinned_out_never_meeting(count, session, day):
    svg = status_chart(series(count, session, day))
    found = places(svg)
    assert 3 <= len(found) <= WIDTH // (2 * FONT)  # bounded: a label at most every two ems
    if session(0):
        assert found[0] == "S1" and found[-1] == f"S{session(count - 1)}"  # the first and the newest
    drawn = texts(svg)
    for i, (x1, y1, anchor1, text1) in enumerate(drawn):
        left1 = x1 - {"start": 0, "middle": 0.5, "end": 1}[anchor1] * text_width(text1)
        assert left1 >= 0 and left1 + text_width(text1) <= WIDTH, text1  # within the drawing
        for x2, y2, anchor2, text2 in drawn[i + 1 :]:
            if abs(y1 - y2) >= 1.2 * FONT:
                continue  # on different lines
            left2 = x2 - {"start": 0, "middle": 0.5, "end": 1}[anchor2] * text_width(text2)
            apart = left2 >= left1 + text_width(text1) or left1 >= left2 + text_width(text2)
            assert apart, f"{text1!r} meets {text2!r}"


def test_huge_totals_label_their_lines_briefly():
    svg = status_chart([{"position": 2, "total": 600, "spent": False}, {"position": 3, "total": 10**12, "spent": True}])
    lines = [text for *_, text in texts(svg, "tick")]
    assert lines[:2] == ["0", "200B"] and lines[-1] == "1.2T" and all(len(text) <= 5 for text in lines)
    assert places(svg) == [] and "Each change in order" in svg  # neither a session nor a time known


def play(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Vasana's Status over two sessions a week apart, an award between them and one after the second."""
    now = [MARCH]
    monkeypatch.setattr(clock, "utc_now", lambda: now[0])
    run.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "valorous=17")
    for night in (1, 2):
        run.json("session", "start", f"Night {night}")
        run.json("status", "award", "Vasana", "--amount", str(300 * night), "--reason", "a deed")
        run.json("status", "award", "Vasana", "--amount", "50", "--reason", "a song")
        run.json("session", "end")
        now[0] += timedelta(days=3)
        run.json("status", "award", "Vasana", "--amount", "20", "--reason", "between")
        now[0] += timedelta(days=4)


def test_the_series_carries_the_session_and_time_of_each_change(run, monkeypatch):
    play(run, monkeypatch)
    app = open_ledger(run.db)
    try:
        ident = Session(app, None, "test").character_id("Vasana")
        Changes(app.views, app.feed).catch_up()
        app.index.catch_up()
        found = status_series(app.views, ident)
        sampled = status_series(app.views, ident, most=3)
        until = status_series(app.views, ident, until=found[2]["position"])
    finally:
        app.close()
    assert [(p["total"], p["session"]) for p in found] == [
        (300, 1),
        (350, 1),
        (370, None),
        (970, 2),
        (1020, 2),
        (1040, None),
    ]
    days = [datetime.fromisoformat(p["time"]).date().isoformat() for p in found]
    assert days == ["2026-03-01", "2026-03-01", "2026-03-04", "2026-03-08", "2026-03-08", "2026-03-11"]
    assert [(p["total"], p["session"]) for p in sampled] == [(350, 1), (970, 2), (1040, None)]
    assert [p["session"] for p in until] == [1, 1, None]
    report = run.json("report", "Vasana")["status"]
    assert [p["session"] for p in report] == [1, 1, None, 2, 2, None]


def test_the_character_page_and_the_report_draw_sessions_and_days(run_sqlite, monkeypatch, tmp_path):
    play(run_sqlite, monkeypatch)
    second = run_sqlite.json("report", "Vasana")["status"][1]["position"]  # in the first session
    data = Reading(run_sqlite.db)
    try:
        with TestClient(build(data, print)) as client:
            front = client.get("/").text
            link = re.search(r'href="(/c/[^"?]+)">Vasana<', front)
            assert link is not None, "no link to Vasana on the campaign page"
            url = link.group(1)
            page = client.get(url).text
            earlier = client.get(f"{url}?as_of=%23{second}").text
    finally:
        data.close()
    svg = page.split("<svg")[1]
    assert places(svg) == ["S1", "4 Mar", "S2", "11 Mar"]
    assert places(earlier.split("<svg")[1]) == ["S1"]  # as it was then
    report = tmp_path / "vasana.html"
    assert run_sqlite("report", "Vasana", "--html", str(report)).exit_code == 0
    assert places(report.read_text().split("<svg")[1]) == ["S1", "4 Mar", "S2", "11 Mar"]
