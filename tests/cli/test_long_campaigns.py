"""A campaign that lasts years: characters grow, retire and take new names; campaigns are listed, chosen
and archived; sessions and notes; names found without regard to case. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from click.testing import CliRunner

from chronicle.cli.main import chronicle


def events(run) -> list[dict]:
    return run.json("log")["events"]


def test_a_level_gained_changes_the_sheet_from_that_point_of_the_log_on(run):
    run("campaign", "new", "Saltmarsh", "--system", "potestas")
    run("character", "add", "Brand", "--stat", "fort=2", "--stat", "str=12")
    injured = run.json("injure", "Brand", "--damage", "10", "--save-roll", "12")
    assert injured["save"]["total"] == 14  # 12 + Fort 2

    grown = run.json("character", "set", "Brand", "fort=5", "str=14", "--reason", "reached level 4")
    assert set(grown) >= {"event", "version", "sheet"}
    assert grown["version"] == 3 and grown["sheet"]["fort"] == 5 and grown["sheet"]["str"] == 14

    later = run.json("injure", "Brand", "--damage", "10", "--save-roll", "12")
    assert later["save"]["total"] == 17 - 1  # 12 + Fort 5 - 1 wound: the new sheet decides

    before = run.json("character", "show", "Brand", "--as-of", injured["event"])
    assert before["sheet"]["fort"] == 2
    assert run.json("character", "show", "Brand", "--as-of", grown["event"])["sheet"]["fort"] == 5
    assert run.json("character", "show", "Brand")["sheet"]["fort"] == 5
    assert run.json("verify")["ok"] is True


def test_a_replay_across_growth_rederives_later_outcomes_under_the_new_sheet(run):
    run("campaign", "new", "Saltmarsh", "--system", "potestas")
    run("character", "add", "Brand", "--stat", "fort=0")
    run("character", "set", "Brand", "fort=8", "--reason", "a belt of health")
    run.json("injure", "Brand", "--damage", "10", "--save-roll", "10")  # 10 + 8 = 18 vs DC 17: no effect
    replayed = run.json("replay", "Brand", "--ruling", "disable_margin=5")
    assert replayed["final"]["Brand"]["wounds"] == 0
    assert replayed["changed"] == []


def test_growth_needs_a_reason_and_known_keys_and_writes_nothing_otherwise(run):
    run("campaign", "new", "Saltmarsh", "--system", "potestas")
    run("character", "add", "Brand", "--stat", "fort=2")
    count = len(events(run))
    assert run("character", "set", "Brand", "fort=5").exit_code == 2  # --reason is required
    assert run("character", "set", "Brand", "charisma=5", "--reason", "x").exit_code == 2
    assert run("character", "set", "Brand", "fort=five", "--reason", "x").exit_code == 2
    assert run("character", "set", "Nobody", "fort=5", "--reason", "x").exit_code == 2
    assert len(events(run)) == count


def test_a_retired_character_leaves_the_list_and_can_do_nothing_more(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=20")
    run("character", "add", "Ann", "--stat", "hp=9")
    retired = run.json("character", "retire", "bruno", "--reason", "took holy orders")
    assert retired["character"] == "Bruno"
    assert [c["name"] for c in run.json("character", "list")["characters"]] == ["Ann"]
    assert [c["name"] for c in run.json("character", "list", "--all")["characters"]] == ["Bruno", "Ann"]
    count = len(events(run))
    refused = run("injure", "Bruno", "--damage", "3", "--mode", "lethal")
    assert refused.exit_code == 1 and "retired" in refused.stderr
    assert len(events(run)) == count
    assert run.json("note", "Sends letters from the monastery", "--for", "Bruno")["for"] == "Bruno"
    assert run.json("verify")["ok"] is True


def test_a_renamed_character_answers_to_the_new_name_and_keeps_its_history(run):
    run("campaign", "new", "Sartar", "--system", "pendragon-pass")
    added = run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "valorous=15")
    renamed = run.json("character", "rename", "Vasana", "Vasana Farosdaughter")
    assert renamed["character"] == "Vasana Farosdaughter" and renamed["version"] == 2
    shown = run.json("character", "show", "vasana farosdaughter")
    assert shown["name"] == "Vasana Farosdaughter" and shown["version"] == 2
    assert run.json("character", "show", "Vasana Farosdaughter", "--as-of", added["event"])["name"] == "Vasana"
    gone = run("character", "show", "Vasana")
    assert gone.exit_code == 2 and "did you mean 'Vasana Farosdaughter'?" in gone.stderr
    # the old name is free again: a new character may take it
    assert run.json("character", "add", "Vasana", "--stat", "siz=10")["name"] == "Vasana"
    names = [c["name"] for c in run.json("character", "list")["characters"]]
    assert names == ["Vasana Farosdaughter", "Vasana"]
    assert [e["character"] for e in events(run)][-3:] == ["Vasana Farosdaughter", "Vasana Farosdaughter", "Vasana"]
    assert run.json("verify")["ok"] is True


def test_names_match_without_regard_to_case_and_offer_the_closest(run):
    run("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run("character", "add", "Vasana", "--stat", "siz=15")
    assert run.json("character", "show", "VASANA")["name"] == "Vasana"
    missed = run("character", "show", "Vasanna")
    assert missed.exit_code == 2 and "did you mean 'Vasana'?" in missed.stderr
    assert run("character", "add", "vasana").exit_code == 1  # the same name but for case
    assert run("--campaign", "sartar", "character", "show", "vasana").exit_code == 0
    wrong = run("--campaign", "Satar", "character", "list")
    assert wrong.exit_code == 2 and "did you mean 'Sartar'?" in wrong.stderr


def test_campaigns_are_listed_chosen_and_archived(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=20")
    run("campaign", "new", "Sartar", "--system", "pendragon-pass")
    listed = run.json("campaign", "list")["campaigns"]
    assert [(c["name"], c["system"], c["characters"], c["current"]) for c in listed] == [
        ("Greyhawk", "adnd2e", 1, False),
        ("Sartar", "pendragon-pass", 0, True),
    ]
    assert listed[0]["events"] == 2 and listed[1]["events"] == 1

    run("campaign", "use", "greyhawk")
    assert run.json("character", "show", "Bruno")["system"] == "adnd2e"  # no --campaign needed
    assert [c["current"] for c in run.json("campaign", "list")["campaigns"]] == [True, False]

    assert run("campaign", "archive", "Sartar").exit_code == 2  # --reason is required
    run("campaign", "archive", "Sartar", "--reason", "made by mistake")
    assert [c["name"] for c in run.json("campaign", "list")["campaigns"]] == ["Greyhawk"]
    assert [c["archived"] for c in run.json("campaign", "list", "--all")["campaigns"]] == [False, True]
    assert run.json("--campaign", "Sartar", "campaign", "show")["name"] == "Sartar"  # its events stay
    assert run("campaign", "use", "Sartar").exit_code == 1


def test_a_session_is_the_events_between_its_start_and_its_end(run):
    run("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run("character", "add", "Vasana", "--stat", "siz=15")
    assert run("session", "end").exit_code == 1  # none is running
    run("session", "start", "The Sun Dome")
    assert run("session", "start").exit_code == 1  # one is running
    run("status", "award", "Vasana", "--amount", "10", "--reason", "guarded the king")
    run("note", "Vasana owes the Grazers a horse", "--for", "Vasana")
    ended = run.json("session", "end")
    assert ended["number"] == 1 and "-" in ended["digest"]
    run("roll", "d20")
    sessions = run.json("session", "list")["sessions"]
    assert [(s["number"], s["title"], s["events"]) for s in sessions] == [(1, "The Sun Dome", 4)]
    assert sessions[0]["end"] - sessions[0]["start"] == 3
    tonight = run.json("log", "--session", "last")["events"]
    assert [e["type"] for e in tonight] == ["SessionStarted", "StatusAwarded", "NoteTaken", "SessionEnded"]
    assert run.json("log", "--session", "1")["events"] == tonight
    assert run("log", "--session", "2").exit_code == 2
    assert run.json("verify", "--digest", ended["digest"])["ok"] is True


def test_a_note_is_one_event_on_the_character_or_the_campaign(run):
    run("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run("character", "add", "Vasana", "--stat", "siz=15")
    on_campaign = run.json("note", "The Lunars hold the Sun Dome")
    on_character = run.json("note", "Owes a horse", "--for", "vasana")
    assert on_campaign["for"] is None and on_character["for"] == "Vasana"
    logged = events(run)[-2:]
    assert [(e["character"], e["data"]["text"]) for e in logged] == [
        (None, "The Lunars hold the Sun Dome"),
        ("Vasana", "Owes a horse"),
    ]
    assert run("note", "").exit_code == 2


def test_export_and_import_carry_the_long_campaign(run, tmp_path):
    run("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run("character", "add", "Vasana", "--stat", "siz=15")
    run("session", "start", "One")
    run("character", "set", "Vasana", "valorous=16", "--reason", "winter")
    run("character", "rename", "Vasana", "Vasana the Bold")
    run("session", "end")
    exported = tmp_path / "sartar.jsonl"
    run("export", "--output", str(exported))
    target = CliRunner().invoke(chronicle, ["--db", str(tmp_path / "copy.db"), "--json", "import", str(exported)])
    assert target.exit_code == 0, target.output
    shown = CliRunner().invoke(
        chronicle, ["--db", str(tmp_path / "copy.db"), "--json", "character", "show", "Vasana the Bold"]
    )
    assert json.loads(shown.stdout)["sheet"]["traits"]["valorous"] == 16


def test_shell_completion_offers_names_and_the_campaign_systems_options(run_sqlite):
    run_sqlite("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run_sqlite("character", "add", "Bruno", "--stat", "hp=20")
    run_sqlite("character", "add", "Ann", "--stat", "hp=9")

    def complete(line: str) -> list[str]:
        words = line.split(" ")
        env = {
            **os.environ,
            "_CHRONICLE_COMPLETE": "bash_complete",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(words) - 1),
        }
        done = subprocess.run([sys.executable, "-m", "chronicle.cli"], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return [row.split(",", 1)[1] for row in done.stdout.splitlines() if row]

    db = run_sqlite.db
    assert complete(f"chronicle --db {db} character show b") == ["Bruno"]
    assert complete(f"chronicle --db {db} injure ") == ["Bruno", "Ann"]
    assert "--mode" in complete(f"chronicle --db {db} injure Bruno --")
    assert complete(f"chronicle --db {db} --campaign g") == ["Greyhawk"]
    assert complete(f"chronicle --db {db}.missing character show ") == []


def test_the_long_campaign_commands_as_real_processes(tmp_path):
    env = {**os.environ, "CHRONICLE_DB": str(tmp_path / "table.db"), "CHRONICLE_BY": "gm"}

    def chronicle_(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "chronicle.cli", *args], env=env, capture_output=True, text=True)

    assert chronicle_("campaign", "new", "Sartar", "--system", "pendragon-pass").returncode == 0
    assert chronicle_("character", "add", "Vasana", "--stat", "siz=15").returncode == 0
    started = chronicle_("session", "start", "The Sun Dome")
    assert started.returncode == 0 and "Session 1 begins: The Sun Dome." in started.stdout
    grown = chronicle_("character", "set", "vasana", "valorous=17", "--reason", "a feat of arms")
    assert grown.returncode == 0 and "Vasana grows" in grown.stdout and "a feat of arms" in grown.stdout
    ended = chronicle_("session", "end")
    assert ended.returncode == 0 and "Session 1 ends." in ended.stdout
    missing = chronicle_("--db", str(tmp_path / "typo.db"), "character", "list")
    assert missing.returncode == 2 and not (tmp_path / "typo.db").exists()
    assert json.loads(chronicle_("--json", "verify").stdout)["ok"] is True
