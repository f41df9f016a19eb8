"""The installed `chronicle` command as a real process: exit codes, streams, environment variables."""

import json
import os
import subprocess
import sys


def chronicle(*args: str, env: dict | None = None, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "chronicle.cli", *args],
        capture_output=True,
        text=True,
        input=input,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def test_the_console_script_runs_the_contract_acceptance(tmp_path):
    db = str(tmp_path / "x.db")
    assert chronicle("--db", db, "campaign", "new", "Glorantha", "--system", "pendragon-pass").returncode == 0
    added = chronicle("--db", db, "--json", "character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13")
    assert added.returncode == 0, added.stderr
    shown = json.loads(chronicle("--db", db, "--json", "character", "show", "Vasana").stdout)
    assert shown["name"] == "Vasana" and {"condition", "sheet", "status", "increases"} <= set(shown)
    assert "Vasana" in chronicle("--db", db, "character", "list").stdout
    rolled = json.loads(chronicle("--db", db, "roll", "4d6kh3", "--json").stdout)
    assert len(rolled["faces"]) == 4 and rolled["source"] == "ledger"
    log = json.loads(chronicle("--db", db, "--json", "log").stdout)
    # the ledger's first fair roll: its commitment to a chain of seeds first
    assert [e["type"] for e in log["events"]] == [
        "CampaignStarted",
        "CharacterRegistered",
        "DiceCommitted",
        "DiceRolled",
    ]
    for bad in ('__import__("os")', "2d"):
        refused = chronicle("--db", db, "--json", "roll", bad)
        assert refused.returncode == 2 and refused.stdout == ""
        assert json.loads(refused.stderr)["error"]["message"]
        assert "Traceback" not in refused.stderr
    assert len(json.loads(chronicle("--db", db, "--json", "log").stdout)["events"]) == 4


def test_environment_variables_pick_the_database_campaign_and_author(tmp_path):
    env = {"CHRONICLE_DB": str(tmp_path / "env.db"), "CHRONICLE_BY": "Greg"}
    assert chronicle("campaign", "new", "A", "--system", "adnd2e", env=env).returncode == 0
    assert chronicle("campaign", "new", "B", "--system", "adnd2e", env=env).returncode == 0
    newest = json.loads(chronicle("--json", "campaign", "show", env=env).stdout)
    assert newest["name"] == "B"  # two campaigns: the one made last is current
    chosen = chronicle("--json", "roll", "d6", env={**env, "CHRONICLE_CAMPAIGN": "a"})
    assert chosen.returncode == 0
    events = json.loads(chronicle("--json", "log", env={**env, "CHRONICLE_CAMPAIGN": "A"}).stdout)["events"]
    assert [e["by"] for e in events] == ["Greg", "Greg", "Greg"]  # started, committed to its dice, rolled


def test_the_default_database_is_chronicle_db_in_the_working_directory(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "campaign", "new", "A", "--system", "adnd2e"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "CHRONICLE_DB"},
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "chronicle.db").exists()
