"""The collector's pace is the `chronicle` process's own choice, made in `main()`: a program that imports
chronicle (docs/python-api.md) keeps its own."""

from __future__ import annotations

import subprocess
import sys

PROBE = (
    "import gc, sys\n"
    "before = gc.get_threshold()\n"
    "import chronicle.cli.main, chronicle.cli.shell, chronicle\n"
    "assert gc.get_threshold() == before, gc.get_threshold()\n"
    "sys.argv = ['chronicle', '--help']\n"
    "try:\n"
    "    chronicle.cli.main.main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(gc.get_threshold()[0])\n"
)


def test_importing_the_command_line_leaves_the_collector_alone_and_main_paces_it() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "100000"
