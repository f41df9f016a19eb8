"""`log` as the contract's Long campaigns section has it: --since at or after, --until at or before, --tail,
--session; times typed without a zone are local time and human output shows local time with its offset;
long output goes through a pager on a terminal and follows $COLUMNS when piped."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

AUCKLAND = "Pacific/Auckland"


def chronicle(db: str, *args: str, tz: str = AUCKLAND, columns: str | None = None) -> subprocess.CompletedProcess:
    """The CLI as a separate process, in time zone TZ, its output piped."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TZ")}
    env["TZ"] = tz
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "--db", db, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def evening(run) -> list[dict]:
    """A campaign of six events, with session 1 around the middle two; its log."""
    run.json("campaign", "new", "Greyhawk", "--system", "potestas")
    run.json("character", "add", "Brand", "--stat", "fort=2")
    run.json("session", "start", "The ford")
    run.json("injure", "Brand", "--damage", "12", "--type", "slashing", "--save-roll", "3")
    run.json("rest", "Brand", "--hours", "8")
    run.json("session", "end")
    run.json("note", "The ogre fled north", "--for", "Brand")
    return run.json("log")["events"]


def local(stamp: str, zone: str = AUCKLAND) -> datetime:
    return datetime.fromisoformat(stamp).astimezone(ZoneInfo(zone))


def positions(done: subprocess.CompletedProcess) -> list[int]:
    import json

    assert done.returncode == 0, done.stderr
    return [e["position"] for e in json.loads(done.stdout)["events"]]


def test_a_time_without_a_zone_is_local_time_at_or_after_for_since_and_at_or_before_for_until(run_sqlite):
    events = evening(run_sqlite)
    third = events[2]
    typed = local(third["time"]).replace(tzinfo=None).isoformat()  # as an Auckland clock on the wall shows it
    every = [e["position"] for e in events]
    assert positions(chronicle(run_sqlite.db, "--json", "log", "--since", typed)) == every[2:]
    assert positions(chronicle(run_sqlite.db, "--json", "log", "--until", typed)) == every[:3]
    # the same wall-clock time in UTC is 13 hours later than the whole evening: nothing at or after it
    assert positions(chronicle(run_sqlite.db, "--json", "log", "--since", typed, tz="UTC")) == []


def test_since_after_the_last_event_is_nothing_and_before_the_first_is_everything(run_sqlite):
    events = evening(run_sqlite)
    every = [e["position"] for e in events]
    assert positions(chronicle(run_sqlite.db, "--json", "log", "--since", "2999-01-01T00:00")) == []
    assert positions(chronicle(run_sqlite.db, "--json", "log", "--since", "2000-01-01")) == every
    assert positions(chronicle(run_sqlite.db, "--json", "log", "--until", "2000-01-01T00:00+00:00")) == []
    assert positions(chronicle(run_sqlite.db, "--json", "log", "--until", "2999-01-01")) == every


def test_event_ids_and_positions_still_bound_since_and_until(run_sqlite):
    events = evening(run_sqlite)
    second, fifth = events[1], events[4]
    found = run_sqlite.json("log", "--since", f"#{second['position']}", "--until", fifth["id"])["events"]
    assert [e["id"] for e in found] == [e["id"] for e in events[1:5]]
    assert run_sqlite("log", "--since", "#999").exit_code == 2
    assert run_sqlite("log", "--since", "yesterday").exit_code == 2


def test_tail_is_the_newest_n_oldest_first_and_session_is_one_sitting(run_sqlite):
    events = evening(run_sqlite)
    assert [e["id"] for e in run_sqlite.json("log", "--tail", "2")["events"]] == [e["id"] for e in events[-2:]]
    assert run_sqlite.json("log", "--tail", "0")["events"] == []
    assert [e["type"] for e in run_sqlite.json("log", "Brand", "--tail", "1")["events"]] == ["NoteTaken"]
    sitting = [e["type"] for e in run_sqlite.json("log", "--session", "last")["events"]]
    assert sitting == ["SessionStarted", "Injured", "Rested", "SessionEnded"]
    assert [e["type"] for e in run_sqlite.json("log", "brand", "--session", "1")["events"]] == ["Injured", "Rested"]
    assert run_sqlite("log", "--session", "2").exit_code == 2


def test_human_log_shows_local_time_with_its_offset_and_json_keeps_iso_times(run_sqlite):
    events = evening(run_sqlite)
    injured = next(e for e in events if e["type"] == "Injured")
    assert injured["time"].endswith("+00:00") and "local_time" not in injured  # the contract's keys, in UTC
    shown = local(injured["time"])
    offset = shown.strftime("%z")
    said = chronicle(run_sqlite.db, "log", "Brand").stdout
    assert f"#{injured['position']}" in said
    assert f"{shown:%Y-%m-%d %H:%M:%S} {offset[:3]}:{offset[3:]}" in said
    assert "Brand takes 12 lethal damage (slashing)" in said and "=" not in said.replace(" = ", "")


def test_piped_output_follows_columns_and_never_wraps_inside_a_word(run_sqlite):
    evening(run_sqlite)
    narrow = chronicle(run_sqlite.db, "log", columns="60").stdout.splitlines()
    assert max(len(line) for line in narrow) <= 60
    wide = chronicle(run_sqlite.db, "log", columns="200").stdout.splitlines()
    assert len(wide) < len(narrow)
    assert any("Fortitude save" in line and "failed by" in line for line in wide)


def test_long_output_on_a_terminal_goes_through_the_pager(run_sqlite, monkeypatch):
    from chronicle.cli import output

    evening(run_sqlite)
    paged: list[str] = []
    monkeypatch.setattr(output, "on_terminal", lambda: True)
    monkeypatch.setattr(output.click, "echo_via_pager", lambda text: paged.append(text))
    monkeypatch.setattr(output.shutil, "get_terminal_size", lambda: os.terminal_size((80, 5)))
    shown = run_sqlite("log")
    assert shown.stdout == "" and "The ogre fled north" in paged[0]
    monkeypatch.setattr(output.shutil, "get_terminal_size", lambda: os.terminal_size((80, 200)))
    assert "The ogre fled north" in run_sqlite("log").stdout and len(paged) == 1  # it fits: no pager
    monkeypatch.setattr(output, "on_terminal", lambda: False)
    monkeypatch.setattr(output.shutil, "get_terminal_size", lambda: os.terminal_size((80, 5)))
    assert "The ogre fled north" in run_sqlite("log").stdout and len(paged) == 1  # piped: never a pager
