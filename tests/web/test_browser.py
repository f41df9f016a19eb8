"""The table view in a real Chromium (Playwright driving Debian's /usr/bin/chromium): a character's page
changes, without a reload, when a game master appends an event with the CLI in another process; at a
phone's width and a desktop's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .conftest import CHROMIUM, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")


@pytest.fixture
def served(table) -> Iterator[str]:
    """`chronicle serve` on a free port, as a player's laptop would run it; its address."""
    with serving(table.db) as address:
        yield address


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_a_character_page_follows_an_event_appended_at_another_terminal(table, served, chromium, width, height):
    from playwright.sync_api import expect

    page = chromium.new_page(viewport={"width": width, "height": height})
    page.goto(served + "/")
    page.get_by_role("link", name="Vasana").first.click()
    summary = page.locator("#summary")
    expect(summary).to_have_text("hp 28/28, Status 650")
    expect(page.locator("#liveness")).to_have_text("live")
    page.evaluate("window.notReloaded = true")

    table.chronicle("status", "award", "Vasana", "--amount", "400", "--reason", "held the ford")

    expect(summary).to_have_text("hp 28/28, Status 1,050, 1 increase pending", timeout=5000)
    assert page.evaluate("window.notReloaded") is True  # the page changed in place
    assert page.locator(".story li").count() == 4
    chart = page.locator("svg.chart")  # redrawn with the new point, within the page's width
    expect(chart.locator("circle title").last).to_have_text("#7: Status 1,050")
    assert chart.is_visible() and chart.bounding_box()["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing scrolls sideways
    page.close()


def test_a_page_shown_as_of_an_earlier_event_stays_as_it_was(table, served, chromium):
    from playwright.sync_api import expect

    page = chromium.new_page(viewport={"width": 390, "height": 844})
    page.goto(served + "/")
    page.get_by_role("link", name="Vasana").first.click()
    page.goto(page.url + "?as_of=%234")
    expect(page.locator("#summary")).to_have_text("hp 28/28, Status 600")
    table.chronicle("status", "award", "Vasana", "--amount", "5", "--reason", "a song")
    page.wait_for_timeout(1500)
    expect(page.locator("#summary")).to_have_text("hp 28/28, Status 600")
    page.close()
