"""An evening of Potestas played by the forms alone, in a real Chromium (Debian's, through Playwright): a gm on
a desktop and two players on 390 px phones, each joined by invitation. An attack with the sheet's weapon and
a critical, wounds, a dying save the gm corrects from the page, and a rest; each write seen on another
browser within a second; `verify` passes; and the events tell what the same evening gives through the
command line, with the same table dice."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import CHROMIUM, serving

HERE = Path(__file__).parent
WEAPONS = "longsword:damage=1d8,types=slashing;dagger:damage=1d4,types=piercing,light"
SETUP = (
    ("campaign", "new", "Keep", "--system", "potestas"),
    ("character", "add", "Aric", "--stat", "fort=3", "--stat", "bab=5", "--stat", f"weapons={WEAPONS}"),
    ("character", "add", "Brannoc", "--stat", "bab=2", "--stat", "weapons=mace:damage=1d8,types=bludgeoning"),
    ("character", "add", "Orc", "--stat", "fort=1", "--stat", "defence=2"),
)
# the evening, as the command line gives it (the forms give the same documents)
EVENING = (
    ("attack", "Aric", "Orc", "--weapon", "longsword", "--roll", "20", "--confirm-roll", "19", "--dice", "5")
    + ("--save-roll", "3"),
    ("injure", "Aric", "--damage", "40", "--save-roll", "1"),
    ("injure", "Aric", "--damage", "40", "--save-roll", "1"),
    ("dying-save", "Aric", "--roll", "15"),
    ("rest", "Brannoc", "--hours", "8"),
)
PLAYED = {"Attacked", "Injured", "DyingSaveMade", "Rested"}
SECOND = 1000  # ms

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")


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


def told(db: str) -> list[tuple[str, str, str]]:
    events = chronicle(db, "log")["events"]
    # (a correction names its position and its author, which the invitations of the page's evening shift)
    plain = [re.sub(r"corrected at #\d+ by [^:]+:", "corrected:", e["summary"]) for e in events]
    said = [(e["type"], e["character"], text) for e, text in zip(events, plain, strict=True)]
    return [line for line in said if line[0] in PLAYED]


def position(db: str, kind: str) -> int:
    return next(e["position"] for e in chronicle(db, "log")["events"] if e["type"] == kind)


@pytest.fixture
def served(run_sqlite) -> Iterator[tuple[str, str]]:
    for line in SETUP:
        run_sqlite.json(*line)
    with serving(run_sqlite.db, "--writes") as address:
        yield run_sqlite.db, address


def joined(browser, db: str, name: str, phone: bool, *invite: str):
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    page = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone).new_page()
    page.goto(chronicle(db, "participant", "invite", name, *invite)["url"])
    page.get_by_role("button", name="Join on this device").click()
    page.wait_for_url(lambda url: "/join/" not in url)
    return page


def record(page, command: str, **fields: str) -> None:
    """Open COMMAND's form, fill FIELDS by their labels (a select by its option), send it, and see it done."""
    from playwright.sync_api import expect

    settled = "() => document.getElementById('act').dataset.made === (document.body.dataset.refreshed || '')"
    page.wait_for_function(settled)  # the forms made after the page's latest refresh
    form = page.locator(f"#act-forms details[data-command='{command}']")
    form.locator("> summary").click()
    for label, value in fields.items():
        control = form.get_by_label(label.replace("_", " "), exact=True)
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    form.locator("button[type=submit]").click()
    expect(page.locator("#act-result")).to_have_class("act-result act-done", timeout=5000)


def test_an_evening_of_potestas_by_the_forms_alone(served, chromium, tmp_path):
    from playwright.sync_api import expect

    db, address = served
    gm = joined(chromium, db, "Gwen", False, "--role", "gm")
    ann = joined(chromium, db, "Ann", True, "--plays", "Aric")
    bo = joined(chromium, db, "Bo", True, "--plays", "Brannoc")
    gm.goto(address + "/c/Keep")
    orc = gm.locator("ul.party li", has_text="Orc")

    record(ann, "attack", Target="Orc", Roll="20", Confirm_Roll="19", Dice="5", Save_Roll="3")
    expect(orc.locator(".summary")).not_to_have_text("unhurt", timeout=SECOND)  # the gm's page, live
    gm.goto(address + "/c/Keep/Aric")
    record(gm, "injure", Damage="40", Save_Roll="1")
    expect(ann.locator("#summary")).to_contain_text("disabled", timeout=SECOND)
    record(gm, "injure", Damage="40", Save_Roll="1")
    expect(ann.locator("#summary")).to_contain_text("dying", timeout=SECOND)
    expect(ann.locator("#act-forms details[data-command='dying-save']")).to_be_visible(timeout=SECOND)
    record(ann, "dying-save", Roll="15")
    expect(gm.locator("#summary")).to_contain_text("stable", timeout=SECOND)
    saved = position(db, "DyingSaveMade")
    entry = gm.locator(f"#event-{saved}")
    entry.get_by_role("button", name="Correct this").click()
    save = entry.get_by_label("The save", exact=True)
    expect(save).to_have_value("15")  # the die as recorded, in the table's words
    save.fill("5")
    entry.get_by_label("Why", exact=True).fill("misread the die")
    entry.get_by_role("button", name=f"Correct #{saved}").click()
    expect(ann.locator("#summary")).to_contain_text("dying", timeout=SECOND)
    record(bo, "rest", Hours="8")

    assert chronicle(db, "verify")["ok"]
    again = str(tmp_path / "cli.db")
    for line in (*SETUP, *EVENING[:4]):
        chronicle(again, *line)
    chronicle(again, "amend", str(position(again, "DyingSaveMade")), "--roll", "save=5", "--reason", "misread the die")
    chronicle(again, *EVENING[4])
    assert told(db) == told(again) and len(told(db)) == 6  # the attack, its hit, two wounds, the save, the rest
