"""Several game masters append to one character at once: nothing lost, nothing duplicated.

Real processes race for the same aggregate; the losers of each race re-read, re-decide and retry
(`cli/context.py`), so every command succeeds and the character's versions stay gapless.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

WORKERS, APPENDS = 8, 50
APPENDER = Path(__file__).with_name("appender.py")


def test_eight_processes_append_fifty_rolls_each_to_one_character(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")

    workers = [subprocess.Popen([sys.executable, str(APPENDER), run.db, "Bruno", str(APPENDS)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for _ in range(WORKERS)]
    reports = []
    for worker in workers:
        out, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err
        reports.append(json.loads(out))

    failures = [m for r in reports for m in r["messages"]]
    assert failures == [] and all(code == 0 for r in reports for code in r["codes"])
    rolls = [e for e in run.json("log", "Bruno")["events"] if e["type"] == "DiceRolled"]
    assert len(rolls) == WORKERS * APPENDS
    assert [e["version"] for e in run.json("log", "Bruno")["events"]] == list(range(1, WORKERS * APPENDS + 2))
    assert run.json("character", "show", "Bruno")["version"] == WORKERS * APPENDS + 1
    assert run.json("verify") == {"ok": True, "events": WORKERS * APPENDS + 2, "problems": []}
