"""A batch's memory does not grow with its length: its decided events go into the open
transaction every few hundred lines instead of being held until the end. Measured as a process's
peak RSS, with generous bounds: a batch ten times as long may take a few MB more, not ten times as many."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from chronicle.cli.main import chronicle

PEAK = """\
import resource, sys
from chronicle.cli.main import chronicle
try:
    chronicle.main(sys.argv[1:], prog_name="chronicle")
except SystemExit as done:
    assert not done.code, done.code
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, file=sys.stderr)
"""


def peak_mb(db: str, lines: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", PEAK, "--db", db, "batch", lines], capture_output=True, text=True, check=True
    )
    return int(done.stderr.strip().splitlines()[-1])


def script(path, lines: int) -> str:
    kinds = ("roll d20 --for C{:02d} --reason memory", "injure C{:02d} --damage 2 --mode sap", "rest C{:02d} --hours 8")
    path.write_text("".join(kinds[i % 3].format(i % 20) + "\n" for i in range(lines)))
    return str(path)


def test_a_batch_ten_times_as_long_peaks_at_about_the_same_memory(tmp_path):
    runner = CliRunner()
    dbs = [str(tmp_path / f"{name}.db") for name in ("short", "long")]
    for db in dbs:
        started = runner.invoke(chronicle, ["--db", db, "campaign", "new", "Greyhawk", "--system", "adnd2e"])
        assert started.exit_code == 0
        cast = tmp_path / "cast.txt"
        cast.write_text("".join(f"character add C{i:02d} --stat hp=60\n" for i in range(20)))
        assert runner.invoke(chronicle, ["--db", db, "batch", str(cast)]).exit_code == 0

    short = peak_mb(dbs[0], script(tmp_path / "short.txt", 2_000))
    long = peak_mb(dbs[1], script(tmp_path / "long.txt", 20_000))

    # the growth is what a test can hold: the absolute peak moves with the machine's load (several times
    # higher in a loaded full run); the 250 MB goal at 1,000,000 lines is the benchmark's (benchmarks/)
    assert long - short < 40, f"{short} MB for 2,000 lines, {long} MB for 20,000"
