"""The Status chart read on a phone: in real Chromium (Playwright driving Debian's /usr/bin/chromium)
at 390 px and at a desktop's width, on the character page `chronicle serve` serves and in `report --html`,
every label of the chart is drawn at 11 px or more, inside the drawing, meeting no other label; the x axis
says sessions and days. Crowded charts (hundreds of sessions or days, huge totals) are measured the same
way in the table view's stylesheet."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from chronicle.cli.chart import status_chart
from chronicle.ledger.application import clock

from .conftest import CHROMIUM, serving

HERE = Path(__file__).parent
STYLESHEET = HERE.parents[1] / "cli" / "web" / "static" / "table.css"
MARCH = datetime(2026, 3, 1, 19, tzinfo=UTC)
SMALLEST = 11  # CSS px

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

# Each chart's labels: their text, rendered font size (CSS px: the font size times the drawing's scale) and box.
MEASURE = """() => [...document.querySelectorAll('svg.chart')].map(svg => {
  const scale = svg.getScreenCTM().a, outer = svg.getBoundingClientRect();
  return {
    width: outer.width,
    inside: [outer.left, outer.top, outer.right, outer.bottom],
    labels: [...svg.querySelectorAll('text')].map(text => {
      const box = text.getBoundingClientRect();
      return {text: text.textContent, css: text.getAttribute('class'),
              px: parseFloat(getComputedStyle(text).fontSize) * scale,
              box: [box.left, box.top, box.right, box.bottom]};
    }),
  };
})"""


def problems(chart: dict[str, Any]) -> list[str]:
    """What is wrong with a measured chart's labels, in words: too small, outside the drawing, overlapping."""
    found = []
    left, top, right, bottom = chart["inside"]
    labels = chart["labels"]
    for i, label in enumerate(labels):
        if label["px"] < SMALLEST:
            found.append(f"{label['text']!r} is drawn at {label['px']:.1f} px")
        l1, t1, r1, b1 = label["box"]
        if l1 < left - 0.5 or t1 < top - 0.5 or r1 > right + 0.5 or b1 > bottom + 0.5:
            found.append(f"{label['text']!r} leaves the drawing")
        for other in labels[i + 1 :]:
            l2, t2, r2, b2 = other["box"]
            if l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1:
                found.append(f"{label['text']!r} overlaps {other['text']!r}")
    return found


def places(chart: dict[str, Any]) -> list[str]:
    return [
        label["text"] for label in sorted(chart["labels"], key=lambda x: x["box"][0]) if label["css"] == "tick place"
    ]


@pytest.fixture
def saga(run_sqlite, monkeypatch) -> Any:
    """Vasana's Status over eight weekly sessions of three awards (an increase spent in the fourth), and an
    award two days after the last."""
    now = [MARCH]
    monkeypatch.setattr(clock, "utc_now", lambda: now[0])
    run = run_sqlite
    run.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "valorous=17")
    for night in range(1, 9):
        run.json("session", "start", f"Night {night}")
        for deed in range(3):
            run.json("status", "award", "Vasana", "--amount", str(90 * night + 7 * deed), "--reason", "a deed")
        if night == 4:
            run.json("increase", "Vasana", "valorous")
        run.json("session", "end")
        now[0] += timedelta(days=7)
    now[0] -= timedelta(days=5)
    run.json("status", "award", "Vasana", "--amount", "30", "--reason", "a song between sessions")
    return run


@pytest.fixture
def served(saga) -> Iterator[str]:
    """`chronicle serve` on a free port (its days said in UTC); its address."""
    with serving(saga.db, env={**os.environ, "TZ": "UTC"}) as address:
        yield address


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_the_character_page_chart_reads_at_the_width(served, chromium, width, height):
    page = chromium.new_page(viewport={"width": width, "height": height})
    page.goto(served + "/")
    page.get_by_role("link", name="Vasana").first.click()
    [chart] = page.evaluate(MEASURE)
    assert problems(chart) == []
    assert places(chart)[0] == "S1" and places(chart)[-1] == "21 Apr"  # the last award, between sessions
    assert all(re.fullmatch(r"S\d+|\d+ [A-Z][a-z]{2}", text) for text in places(chart)), places(chart)
    assert not [label["text"] for label in chart["labels"] if "#" in label["text"]]
    assert chart["width"] <= width and page.evaluate("document.documentElement.scrollWidth") <= width
    if width == 390:
        sizes = {round(label["px"], 1) for label in chart["labels"]}
        assert min(sizes) >= SMALLEST and chart["width"] > 340  # the whole width of the phone's page
    page.close()


def test_the_report_chart_reads_on_a_phone(saga, chromium, tmp_path):
    report = tmp_path / "vasana.html"
    done = subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "--db", saga.db, "report", "Vasana", "--html", str(report)],
        capture_output=True,
        text=True,
        cwd=HERE,
        env={**os.environ, "TZ": "UTC"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    page = chromium.new_page(viewport={"width": 390, "height": 844})
    page.goto(report.as_uri())
    [chart] = page.evaluate(MEASURE)
    assert problems(chart) == []
    assert places(chart)[0] == "S1" and places(chart)[-1] == "21 Apr"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()


def crowded() -> dict[str, list[dict[str, Any]]]:
    def series(count: int, every: int, days: int, size: int = 1, session: bool = True) -> list[dict[str, Any]]:
        return [
            {
                "position": 10 + i,
                "total": (i * 137 % 500 + i * 50) * size,
                "spent": i % 17 == 5,
                "session": i // every + 1 if session else None,
                "time": (MARCH + timedelta(days=i * days // count)).isoformat(),
            }
            for i in range(count)
        ]

    return {
        "240 sessions": series(240, 1, 240),
        "60 sessions": series(240, 4, 60),
        "9 sessions": series(9, 1, 9),
        "50 days": series(50, 1, 50, session=False),
        "3 years": series(20, 1, 1000, session=False),
        "huge totals": series(12, 1, 3, 10**9, session=False),
        "one change": series(1, 1, 1),
        "sessions and days": [
            {**p, "session": p["session"] if i % 4 else None} for i, p in enumerate(series(30, 3, 20))
        ],
    }


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_crowded_charts_read_at_the_width(chromium, width):
    cases = crowded()
    page = chromium.new_page(viewport={"width": width, "height": 900})
    drawn = "".join(f"<section><h2>{name}</h2>{status_chart(series)}</section>" for name, series in cases.items())
    page.set_content(f"<style>{STYLESHEET.read_text()}</style><main>{drawn}</main>")
    charts = page.evaluate(MEASURE)
    assert len(charts) == len(cases)
    for name, chart in zip(cases, charts, strict=True):
        assert problems(chart) == [], name
        assert 1 <= len(places(chart)) <= 12, name
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.close()
