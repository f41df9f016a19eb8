"""`chronicle --help` lists the commands from cli/summaries.py without importing them: the list must say
what each command's own help says, and the help must stay what Click would print from the commands."""

from __future__ import annotations

import inspect
import subprocess
import sys

from click.testing import CliRunner

from chronicle.cli.main import COMMANDS, _load, chronicle
from chronicle.cli.summaries import SUMMARIES


def own_summary(name: str) -> str:
    command = _load(COMMANDS[name])
    text = inspect.cleandoc(command.short_help) if command.short_help else (command.help or "")
    return " ".join(text.split("\n\n")[0].split())


def test_every_command_is_summarised_as_its_own_help_says():
    listed = {name for name in COMMANDS if not _load(COMMANDS[name]).hidden}
    assert set(SUMMARIES) == listed
    assert {name: own_summary(name) for name in listed} == SUMMARIES


def test_help_lists_every_command_as_click_would(monkeypatch):
    from chronicle.cli import summaries

    quick = CliRunner().invoke(chronicle, ["--help"]).output
    monkeypatch.setattr(summaries, "SUMMARIES", {})  # every command asked for its own short help
    asked = CliRunner().invoke(chronicle, ["--help"]).output
    assert quick == asked and "injure" in quick and "winter" in quick


def test_help_imports_no_command_module_and_no_rule_system():
    systems = (
        "chronicle.cli.systems",
        "chronicle.domain.systems",
        "chronicle.domain.potestas",
        "chronicle.cli.character",
    )
    probe = (
        f"SYSTEMS = {systems!r}\n"
        "import sys\nfrom chronicle.cli.main import main\nsys.argv = ['chronicle', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "loaded = [m for m in sys.modules if m.startswith(SYSTEMS)]\n"
        "print(loaded, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == "[]"
