"""Phone first, measured in a real Chromium (Debian's /usr/bin/chromium through Playwright) at 360 px: on the
campaign page, a character page with its forms open, and the log, every control's rendered box is at least
44 x 44 CSS px, no text is under 16 px, nothing scrolls sideways, and the log's filters are folded."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import CHROMIUM, serving

HERE = Path(__file__).parent
WIDTH = 360
WEAPONS = "longsword:damage=1d8,types=slashing;dagger:damage=1d4,types=piercing,light"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

# what is too small on the page, in words: each visible control under 44 x 44, each text under 16 px
MEASURE = """() => {
  const problems = [];
  const shown = (e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  const named = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " +
    (e.textContent || e.name || "").trim().slice(0, 30);
  for (const e of document.querySelectorAll("a, button, input, select, textarea, summary")) {
    if (!shown(e) || e.closest("svg")) continue;
    const b = e.getBoundingClientRect();
    if (b.width < 44 || b.height < 44) problems.push(`${named(e)}: ${Math.round(b.width)} x ${Math.round(b.height)}`);
  }
  for (const e of document.querySelectorAll("body *")) {
    if (!shown(e) || e.closest("svg") || ["SCRIPT", "STYLE", "OPTION"].includes(e.tagName)) continue;
    const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (own && size < 16) problems.push(`${named(e)}: text ${size} px`);
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > window.innerWidth) problems.push(`scrolls sideways: ${wide} px`);
  return problems;
}"""


def chronicle(db: str, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "--db", db, "--by", "gm", "--json", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=HERE,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def served(run_sqlite) -> Iterator[tuple[str, str]]:
    run = run_sqlite
    run.json("campaign", "new", "Keep", "--system", "potestas")
    run.json("character", "add", "Aric", "--stat", "bab=3", "--stat", f"weapons={WEAPONS}")
    run.json("character", "add", "Orc", "--stat", "bab=1")
    run.json("injure", "Orc", "--damage", "30", "--save-roll", "2")
    run.json("session", "start", "The keep")
    with serving(run.db, "--writes") as address:
        yield run.db, address


def test_a_phone_at_360_px_has_large_controls_and_text_and_no_sideways_scroll(served, chromium):
    from playwright.sync_api import expect

    db, address = served
    invited = chronicle(db, "participant", "invite", "Ann", "--plays", "Aric")
    phone = chromium.new_context(viewport={"width": WIDTH, "height": 780}, is_mobile=True, has_touch=True).new_page()
    phone.goto(invited["url"])
    phone.get_by_role("button", name="Join on this device").click()
    phone.wait_for_url("**/c/Keep/Aric")
    attack = phone.locator("details[data-command=attack]")
    expect(attack).to_be_visible()
    attack.locator("> summary").click()
    attack.locator("details.act-more > summary").click()
    assert phone.evaluate(MEASURE) == [], "a character page with its forms open"
    phone.goto(address + "/c/Keep")
    assert phone.evaluate(MEASURE) == [], "the campaign page"
    phone.goto(address + "/c/Keep/log")
    assert phone.locator("form.filters").is_hidden()  # folded
    assert phone.evaluate(MEASURE) == [], "the log"
    phone.context.close()
