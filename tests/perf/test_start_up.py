"""What a command loads as a user runs it (each a process of its own): the commands read at the table
right after an append (`character show`, `character list`, `log --tail`) read rows, so they load neither
pydantic's models nor a rule system (start-up is most of what they cost: benchmarks/README.md); an append
loads no signature checker."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pydantic.main", "chronicle.domain.potestas", "chronicle.domain.events")
PROBE = (
    "import atexit, json, sys\n"
    "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
    "sys.argv = ['chronicle', *sys.argv[1:]]\n"
    "from chronicle.cli.main import main\n"
    "main()\n"
)


def loaded(db: str, *args: str) -> tuple[str, set[str]]:
    """A command's output and the modules its process had loaded when it ended."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--db", db, "--by", "gm", *args], capture_output=True, text=True, check=True
    )
    return done.stdout, set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.fixture
def ledger(tmp_path) -> str:
    db = str(tmp_path / "table.db")
    loaded(db, "campaign", "new", "Saltmarsh", "--system", "potestas")
    loaded(db, "character", "add", "Brand", "--stat", "fort=3")
    return db


@pytest.mark.parametrize(
    ("command", "shows"),
    [
        (("character", "show", "Brand"), "1 wound"),
        (("character", "list"), "Brand"),
        (("log", "Brand", "--tail", "20"), "was registered"),
        (("log", "--tail", "20"), "The campaign Saltmarsh began"),
    ],
)
def test_what_is_read_right_after_an_append_loads_no_model(ledger, command, shows):
    out, modules = loaded(ledger, "injure", "Brand", "--damage", "12", "--save-roll", "9")
    assert "pydantic.main" in modules  # the append itself needs the rules (the probe sees what is loaded)
    assert "nacl" not in modules  # it signs (cryptography); libsodium only checks signatures
    out, modules = loaded(ledger, *command)
    assert shows in out
    assert not [name for name in HEAVY if name in modules]
