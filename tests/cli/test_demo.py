"""`chronicle demo` runs end to end on the embedded default, through the real commands."""

import json
import os
import re
import subprocess
import sys


def test_the_demo_runs_on_the_embedded_default_and_verifies(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("CHRONICLE_DB", "CHRONICLE_CAMPAIGN")}
    done = subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "demo"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "chronicle.db").exists()
    out = done.stdout
    assert "attack bonus +11" in out and "Fortitude save, DC 17" in out  # the seed's Ivanior example
    assert re.search(r"Corrected #\d+ \(Ogre\) with damage 12", out) and "ok: " in out  # by its log position
    assert "Replayed under the ruling disable margin 4 (nothing written)." in out
    assert "failing by 4 or more makes it a disabling wound. Guard is now disabled." in out
    for campaign in ("Demo: Potestas", "Demo: AD&D 2E", "Demo: Glorantha"):
        shown = subprocess.run(
            [sys.executable, "-m", "chronicle.cli", "--json", "--campaign", campaign, "verify"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert json.loads(shown.stdout)["ok"] is True, campaign
    again = subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "demo"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert again.returncode == 0 and "Demo: Potestas (2)" in again.stdout
