"""Reports: every kind of event appears, and the HTML page renders in a real headless Chromium."""

import shutil
import subprocess
from pathlib import Path

import pytest

from chronicle.domain.pendragon import IncreaseSpent, OathSworn, StatusAwarded, parse_sheet
from chronicle.domain.pendragon.oaths import SwearInputs
from chronicle.domain.pendragon.status import AwardInputs, IncreaseInputs
from chronicle.ledger.application.session import Session
from chronicle.ledger.store.chronicle import open_ledger

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DOCS = Path(__file__).resolve().parents[2] / "docs"


def saga(db: str) -> None:
    """Vasana earns 1,035 Status in three awards, spends the increase, swears an oath."""
    session = Session(open_ledger(db), None, "gm", 3)
    session.start_campaign("Glorantha", "pendragon-pass")
    vasana = session.add_character("Vasana", parse_sheet({"siz": "15", "con": "13", "valorous": "17"}))
    session.resolve(vasana, StatusAwarded, AwardInputs(honour="rune-lord"))
    session.resolve(vasana, StatusAwarded, AwardInputs(amount=400, reason="held the ford"))
    session.resolve(vasana, StatusAwarded, AwardInputs(foe="armoured-mounted-warrior"))
    session.resolve(vasana, IncreaseSpent, IncreaseInputs(what="valorous"))
    session.resolve(vasana, OathSworn, SwearInputs(text="avenge Orlanth's temple"))
    session.save()


def test_the_report_shows_every_event_and_the_status_series(run_sqlite):
    saga(run_sqlite.db)
    run_sqlite.json("amend", "#5", "--void", "--reason", "it was a trollkin")
    report = run_sqlite.json("report", "Vasana")
    kinds = {e["type"] for e in report["timeline"]}
    assert {"CharacterRegistered", "StatusAwarded", "IncreaseSpent", "OathSworn", "Amended"} <= kinds
    assert [p["total"] for p in report["status"]][:3] == [600, 1000, 1035]
    assert any(p["spent"] for p in report["status"])
    voided = next(e for e in report["timeline"] if e["position"] == 5)
    assert voided["amended"][0]["reason"] == "it was a trollkin"
    assert report["character"]["status"]["total"] == 1000


def test_campaign_report_lists_conditions_leaders_oaths_and_disputes(run_sqlite):
    saga(run_sqlite.db)
    run_sqlite.json("amend", "#5", "--void", "--reason", "it was a trollkin")
    report = run_sqlite.json("campaign", "report")
    assert report["characters"][0]["name"] == "Vasana"
    assert report["status_leaders"] == [{"name": "Vasana", "status": 1000}]
    assert report["open_oaths"][0]["text"] == "avenge Orlanth's temple"
    assert report["disputed"][0]["reason"] == "it was a trollkin"


def test_campaign_report_names_a_dispute_recorded_by_the_command_just_before(run_sqlite):
    """With --campaign nothing else catches the index up first: the report reads the amendments
    only after it does so itself."""
    saga(run_sqlite.db)
    run_sqlite.json("campaign", "report")  # the index is caught up to here
    run_sqlite.json("amend", "#5", "--void", "--reason", "it was a trollkin")
    report = run_sqlite.json("--campaign", "Glorantha", "campaign", "report")
    assert [d["reason"] for d in report["disputed"]] == ["it was a trollkin"]


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_html_report_renders_in_headless_chromium(run_sqlite, tmp_path):
    assert CHROMIUM is not None  # (skipped above otherwise)
    saga(run_sqlite.db)
    page = tmp_path / "vasana.html"
    assert run_sqlite("report", "Vasana", "--html", str(page)).exit_code == 0
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert "<svg" in dom.stdout and "Status over time" in dom.stdout
    assert dom.stdout.count("<circle") == 4 and "increase spent" in dom.stdout
    assert "Vasana" in dom.stdout and 'id="timeline"' in dom.stdout
    shot = tmp_path / "report.png"
    subprocess.run(
        [CHROMIUM, *flags, "--window-size=1000,1100", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_voiding_an_award_a_later_increase_depended_on_is_refused(run_sqlite):
    saga(run_sqlite.db)
    before = run_sqlite("export").stdout
    refused = run_sqlite("amend", "#4", "--void", "--reason", "the ford was someone else")
    assert refused.exit_code == 1
    assert "Vasana's event at #6 cannot be decided again with this correction: no increase pending" in refused.stderr
    assert run_sqlite("export").stdout == before
