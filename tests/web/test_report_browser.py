"""`report --html` as a player sees it: the page rendered in real Chromium (Playwright driving Debian's
/usr/bin/chromium) at a phone's width and a desktop's — its text, headed tables, unbroken timestamps,
the Status chart's axes, no sideways scrolling on the phone, and nothing fetched from the network."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import CHROMIUM

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")


@pytest.fixture
def report(run_sqlite, tmp_path) -> Path:
    """Vasana's saga through the CLI: Status past 1,000, an increase spent, an oath, a wound and First Aid."""
    run = run_sqlite
    run.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "valorous=17")
    run.json("status", "award", "Vasana", "--honour", "rune-lord")
    run.json("status", "award", "Vasana", "--amount", "400", "--reason", "held the ford")
    run.json("status", "award", "Vasana", "--foe", "armoured-mounted-warrior")
    run.json("increase", "Vasana", "valorous")
    run.json("oath", "swear", "Vasana", "avenge Orlanth's temple")
    run.json("injure", "Vasana", "--damage", "9", "--attacker", "Trollkin")
    run.json("first-aid", "Vasana", "1")
    page = tmp_path / "vasana.html"
    done = run("report", "Vasana", "--html", str(page))
    assert done.exit_code == 0 and done.stdout == f"Wrote Vasana's report to {page}.\n"
    return page


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_the_report_reads_on_a_phone_and_a_desktop(report, chromium, width, height):
    page = chromium.new_page(viewport={"width": width, "height": height})
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(report.as_uri())
    text = page.inner_text("body")
    for said in (
        "Vasana",
        'Vasana gains 400 Status for "held the ford"',
        "Trollkin wounds Vasana",
        '"avenge Orlanth\'s temple"',
        "Valorous rises from 17 to 18",
        "Wounds and healing",
    ):
        assert said in text, said
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
    headers = page.locator("#timeline thead th").all_inner_texts()
    assert [h.strip().lower() for h in headers] == ["#", "when, by", "what happened"]
    assert page.locator("#timeline tbody tr").count() == 8  # every event of Vasana, registration first
    # each timestamp piece stays on one line
    tall = page.evaluate("""() => [...document.querySelectorAll('td.when span')].filter(span =>
        span.getClientRects().length !== 1).map(span => span.textContent)""")
    assert tall == []
    chart = page.locator("#status svg")
    assert chart.is_visible() and chart.bounding_box()["width"] <= width
    labels = chart.locator("text").all_text_contents()
    assert {"Day of each change", "0", "1,000", "2,000", "1,035"} <= set(labels)
    assert not any(label.startswith("#") for label in labels)  # the x axis: the day, not log positions
    assert chart.locator("circle").count() == 4 and "increase spent" in chart.inner_html()
    assert all(url.startswith(("file:", "data:", "about:")) for url in fetched), fetched
    page.close()


def test_the_report_prints(report, chromium):
    page = chromium.new_page()
    page.goto(report.as_uri())
    printed = page.pdf(format="A4")
    assert printed[:5] == b"%PDF-" and len(printed) > 10_000
    page.close()
