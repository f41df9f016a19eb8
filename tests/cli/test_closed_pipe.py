"""A reader that stops early (`chronicle export | head`) ends the command quietly, as Click ends any
command whose stdout went away: no error line, never the `internal` code."""

from __future__ import annotations

import os
import subprocess
import sys


def test_export_to_a_reader_that_stops_early_ends_quietly(run_sqlite):
    run_sqlite("campaign", "new", "Pipes", "--system", "adnd2e")
    run_sqlite("character", "add", "Bruno", "--stat", "hp=20")
    lines = "".join(f"roll 1d6 --for Bruno --reason {'x' * 200}\n" for _ in range(1500))
    assert run_sqlite("batch", "-", input=lines).exit_code == 0
    env = {**os.environ, "CHRONICLE_DB": run_sqlite.db}
    for json in ((), ("--json",)):
        command = [sys.executable, "-m", "chronicle.cli", *json, "export"]
        export = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert export.stdout is not None and export.stderr is not None
        assert export.stdout.read(10)
        export.stdout.close()
        error = export.stderr.read().decode()
        assert export.wait() == 1 and error == "", error
