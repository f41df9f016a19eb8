"""An evening in each system played by the forms alone, in a real Chromium (Debian's, through Playwright): a gm
on a desktop and two players on 390 px phones, each joined by invitation; each write seen on another browser
within a second; `verify` passes; and the events tell what the same evening gives through the command line,
with the same table dice. Potestas: an attack with the sheet's weapon and a critical, wounds, a dying save
the gm corrects from the page, and a rest. AD&D 2E: a punch at an armed defender who strikes first, a sap, a
mugging. PenDragon Pass: an opposed check, a wound, First Aid, Chirurgery, an oath sworn and fulfilled,
Status awarded and the Winter Phase, the last two from the campaign page."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from click.testing import CliRunner

from chronicle.cli.main import chronicle as main

from .conftest import CHROMIUM, serving
from .waiting import until

SECOND = 1000  # ms

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")


def chronicle(db: str, *args: str) -> dict:
    """`chronicle --json ARGS` on DB as the gm, in this process (a process each would slow the evenings)."""
    done = CliRunner().invoke(main, ["--db", db, "--by", "gm", "--json", *args], catch_exceptions=False)
    assert done.exit_code == 0, done.stderr + done.stdout
    return json.loads(done.stdout)


def told(db: str, played: set[str]) -> list[tuple[str, str, str]]:
    """The events of the kinds PLAYED, each as its kind, its character and its sentence."""
    events = chronicle(db, "log")["events"]
    # (a correction names its position and its author, which the invitations of the page's evening shift)
    plain = [re.sub(r"corrected at #\d+ by [^:]+:", "corrected:", e["summary"]) for e in events]
    said = [(e["type"], e["character"], text) for e, text in zip(events, plain, strict=True)]
    return [line for line in said if line[0] in played]


def by_the_command_line(db: str, *lines: tuple[str, ...]) -> str:
    """DB with LINES given through the command line."""
    for line in lines:
        chronicle(db, *line)
    return db


def position(db: str, kind: str) -> int:
    return next(e["position"] for e in chronicle(db, "log")["events"] if e["type"] == kind)


@contextmanager
def served(run, setup: tuple[tuple[str, ...], ...]) -> Iterator[tuple[str, str]]:
    """The campaign SETUP makes, served with writes: its ledger and its address."""
    for line in setup:
        run.json(*line)
    with serving(run.db, "--writes") as address:
        yield run.db, address


def joined(browser, db: str, name: str, phone: bool, *invite: str):
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    page = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone).new_page()
    page.goto(chronicle(db, "participant", "invite", name, *invite)["url"])
    page.get_by_role("button", name="Join on this device").click()
    page.wait_for_url(lambda url: "/join/" not in url)
    return page


def table(browser, db: str, first: str, second: str):
    """The gm on a desktop and the players of FIRST and SECOND on phones, each by invitation."""
    gm = joined(browser, db, "Gwen", False, "--role", "gm")
    return gm, joined(browser, db, "Ann", True, "--plays", first), joined(browser, db, "Bo", True, "--plays", second)


@contextmanager
def seen(page) -> Iterator[None]:
    """PAGE shows what the block writes (from another browser) within a second: it fetched itself again."""
    before = page.evaluate("() => document.body.dataset.refreshed || ''")
    yield
    until(page, "before => (document.body.dataset.refreshed || '') !== before", before, timeout=SECOND)


def record(page, command: str, **fields: str | bool) -> None:
    """Open COMMAND's form, fill FIELDS by their labels (a select by its option, a box ticked by True, a
    folded field by opening "More options"), send it, and see it done."""
    from playwright.sync_api import expect

    settled = "() => document.getElementById('act').dataset.made === (document.body.dataset.refreshed || '')"
    until(page, settled)  # the forms made after the page's latest refresh
    form = page.locator(f"#act-forms details[data-command='{command}']")
    form.locator("> summary").click()
    for label, value in fields.items():
        control = form.get_by_label(label.replace("_", " "), exact=True)
        if not control.is_visible():
            form.locator("details.act-more > summary").click()
        if value is True:
            control.check()
        elif control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(str(value))
        else:
            control.fill(str(value))
    form.locator("button[type=submit]").click()
    expect(page.locator("#act-result")).to_have_class("act-result act-done", timeout=5000)


# --- Potestas ---------------------------------------------------------------------------------------------

WEAPONS = "longsword:damage=1d8,types=slashing;dagger:damage=1d4,types=piercing,light"
KEEP = (
    ("campaign", "new", "Keep", "--system", "potestas"),
    ("character", "add", "Aric", "--stat", "fort=3", "--stat", "bab=5", "--stat", f"weapons={WEAPONS}"),
    ("character", "add", "Brannoc", "--stat", "bab=2", "--stat", "weapons=mace:damage=1d8,types=bludgeoning"),
    ("character", "add", "Orc", "--stat", "fort=1", "--stat", "defence=2"),
)
# the evening, as the command line gives it (the forms give the same documents)
POTESTAS = (
    ("attack", "Aric", "Orc", "--weapon", "longsword", "--roll", "20", "--confirm-roll", "19", "--dice", "5")
    + ("--save-roll", "3"),
    ("injure", "Aric", "--damage", "40", "--save-roll", "1"),
    ("injure", "Aric", "--damage", "40", "--save-roll", "1"),
    ("dying-save", "Aric", "--roll", "15"),
    ("rest", "Brannoc", "--hours", "8"),
)


def test_an_evening_of_potestas_by_the_forms_alone(run_sqlite, chromium, tmp_path):
    from playwright.sync_api import expect

    with served(run_sqlite, KEEP) as (db, address):
        gm, ann, bo = table(chromium, db, "Aric", "Brannoc")
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
    again = by_the_command_line(str(tmp_path / "cli.db"), *KEEP, *POTESTAS[:4])
    chronicle(again, "amend", str(position(again, "DyingSaveMade")), "--roll", "save=5", "--reason", "misread the die")
    chronicle(again, *POTESTAS[4])
    played = {"Attacked", "Injured", "DyingSaveMade", "Rested"}
    assert told(db, played) == told(again, played)
    assert len(told(db, played)) == 6  # the attack, its hit, two wounds, the save, the rest


# --- AD&D 2E ----------------------------------------------------------------------------------------------

CLUB = "weapons=club:blunt,small,damage=1d6"
GREYHAWK = (
    ("campaign", "new", "Greyhawk", "--system", "adnd2e"),
    ("character", "add", "Thief", "--stat", "hp=30", "--stat", "level=9", "--stat", "class=thief", "--stat", CLUB),
    ("character", "add", "Fighter", "--stat", "hp=40", "--stat", "level=5", "--stat", "class=fighter"),
    ("character", "add", "Guard", "--npc", "--stat", "hp=20", "--stat", "level=1", "--stat", "petrification=13")
    + ("--stat", CLUB),
)
ADND2E = (
    ("attack", "Fighter", "Guard", "--maneuver", "punch", "--roll", "15", "--dice", "2", "--defender-armed")
    + ("--defender-roll", "16", "--defender-dice", "3"),
    ("attack", "Thief", "Guard", "--maneuver", "sap", "--roll", "19", "--dice", "4", "--knockout-roll", "95")
    + ("--knockout-dice", "3,4"),
    ("attack", "Thief", "Guard", "--maneuver", "mug", "--roll", "14"),
    ("mug", "Thief", "Guard", "--save-roll", "5", "--knockout-dice", "2,5"),
)


def test_an_evening_of_adnd2e_by_the_forms_alone(run_sqlite, chromium, tmp_path):
    from playwright.sync_api import expect

    with served(run_sqlite, GREYHAWK) as (db, address):
        gm, ann, bo = table(chromium, db, "Thief", "Fighter")
        gm.goto(address + "/c/Greyhawk")
        with seen(gm):  # the punch, and the Guard's club first
            punch = {"Maneuver": "punch", "Roll": "15", "Dice": "2", "Defender_Roll": "16", "Defender_Dice": "3"}
            record(bo, "attack", Target="Guard", Defender_Armed=True, **punch)
        with seen(gm):
            sap = {"Maneuver": "sap", "Roll": "19", "Dice": "4", "Knockout_Roll": "95", "Knockout_Dice": "3, 4"}
            record(ann, "attack", Target="Guard", **sap)
        with seen(gm):
            record(ann, "attack", Target="Guard", Maneuver="mug", Roll="14")
        with seen(gm):
            record(ann, "mug", Victim="Guard", Save_Roll="5", Knockout_Dice="2, 5")
        expect(gm.locator("ul.party li", has_text="Guard")).to_contain_text("knocked out", timeout=SECOND)

    assert chronicle(db, "verify")["ok"]
    again = by_the_command_line(str(tmp_path / "cli.db"), *GREYHAWK, *ADND2E)
    played = {"Attacked", "Injured", "Mugged"}
    assert told(db, played) == told(again, played)
    assert len(told(db, played)) == 7  # the punch, its blow, the club's, the sap, its blow, the mugging's hit and save


# --- PenDragon Pass ---------------------------------------------------------------------------------------

SARTAR = (
    ("campaign", "new", "Sartar", "--system", "pendragon-pass"),
    ("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "sword=15")
    + ("--stat", "valorous=17"),
    ("character", "add", "Harrek", "--stat", "siz=14", "--stat", "con=12", "--stat", "first_aid=15")
    + ("--stat", "chirurgery=14"),
    ("character", "add", "Broo", "--npc", "--stat", "siz=12", "--stat", "con=12", "--stat", "sword=12"),
)
PENDRAGON = (
    ("check", "Vasana", "sword", "--roll", "14", "--opposed-by", "Broo:sword", "--opposed-roll", "8"),
    ("injure", "Vasana", "--damage", "14", "--attacker", "Broo"),
    ("first-aid", "Vasana", "1", "--healer", "Harrek", "--roll", "5", "--heal-roll", "2"),
    ("chirurgery", "Vasana", "--healer", "Harrek", "--roll", "6"),
    ("oath", "swear", "Harrek", "avenge Vasana on the Broo"),
    ("oath", "fulfil", "Harrek", "oath-1", "--status", "10"),
    ("status", "award", "Harrek", "--amount", "50", "--reason", "slew the Broo"),
    ("winter", "--land-roll", "4"),
)


def test_an_evening_of_pendragon_pass_by_the_forms_alone(run_sqlite, chromium, tmp_path):
    from playwright.sync_api import expect

    with served(run_sqlite, SARTAR) as (db, address):
        gm, ann, bo = table(chromium, db, "Vasana", "Harrek")
        gm.goto(address + "/c/Sartar/Vasana")
        with seen(gm):
            record(ann, "check", Skill="sword", Roll="14", Opposed_By="Broo:sword", Opposed_Roll="8")
        with seen(ann):  # a major wound, which First Aid and Chirurgery now treat
            record(gm, "injure", Damage="14", Attacker="Broo")
        expect(ann.locator("#summary")).to_contain_text("Chirurgery", timeout=SECOND)
        with seen(gm):
            record(ann, "first-aid", Wound="1", Healer="Harrek", Roll="5", Heal_Roll="2")
        with seen(ann):
            record(gm, "chirurgery", Healer="Harrek", Roll="6")
        expect(ann.locator("#summary")).not_to_contain_text("Chirurgery", timeout=SECOND)

        gm.goto(address + "/c/Sartar")
        oaths = gm.locator("ul.oaths")
        record(bo, "oath swear", Text="avenge Vasana on the Broo")
        expect(oaths).to_contain_text("avenge Vasana on the Broo", timeout=SECOND)
        record(bo, "oath fulfil", Oath="oath-1", Status="10")
        expect(oaths).to_have_count(0, timeout=SECOND)
        with seen(bo):  # the table's forms, on the campaign's page
            record(gm, "status award", Name="Harrek", Amount="50", Reason="slew the Broo")
        expect(bo.locator("#summary")).to_contain_text("60", timeout=SECOND)
        with seen(ann), seen(bo):
            record(gm, "winter", Land_Roll="4")

    assert chronicle(db, "verify")["ok"]
    again = by_the_command_line(str(tmp_path / "cli.db"), *SARTAR, *PENDRAGON)
    played = {"Checked", "Injured", "FirstAidGiven", "ChirurgeryPerformed", "OathSworn", "OathFulfilled"}
    played |= {"StatusAwarded", "WinterBegan", "WinterResolved"}
    assert told(db, played) == told(again, played)
    assert len(told(db, played)) == 10  # the Broo, not of the party, winters not
