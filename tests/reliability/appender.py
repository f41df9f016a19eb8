"""A worker process for the concurrency test: `python appender.py DB NAME COUNT`.

Runs `chronicle --db DB roll d20 --for NAME` COUNT times, each a whole command (its own ledger,
its own unit of work) in this one process, and prints one JSON line of exit codes and messages.
Many of these run at once against one database.
"""

from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from chronicle.cli.main import chronicle


def main(db: str, name: str, count: int) -> None:
    runner = CliRunner()
    codes, messages = [], []
    for _ in range(count):
        result = runner.invoke(chronicle, ["--db", db, "--by", "worker", "roll", "d20", "--for", name])
        codes.append(result.exit_code)
        if result.exit_code:
            messages.append((result.stderr or result.stdout or repr(result.exception)).strip())
    print(json.dumps({"codes": codes, "messages": messages}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
