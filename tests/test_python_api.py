"""The Python API under the command line (docs/python-api.md): the page's example runs as written, on a
fresh ledger; `import chronicle` loads no rule system; a read never makes a database."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import chronicle
from chronicle.domain.errors import BadInput

PAGE = Path(__file__).resolve().parents[1] / "docs" / "python-api.md"


def test_the_pages_example_runs_as_written(tmp_path, monkeypatch, capsys):
    example = re.search(r"```python\n(.*?)```", PAGE.read_text(), re.DOTALL)
    assert example is not None, "docs/python-api.md has its example"
    monkeypatch.chdir(tmp_path)
    exec(compile(example.group(1), str(PAGE), "exec"), {})  # noqa: S102 - the documentation's own code
    printed = capsys.readouterr().out
    assert "Brand takes 12 lethal damage" in printed and "not_found" in printed and "did you mean 'Brand'" in printed
    assert (tmp_path / "table.db").exists()


def test_a_read_never_makes_a_database(tmp_path):
    with pytest.raises(BadInput, match="missing.db"):
        chronicle.open(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()


def test_importing_chronicle_loads_no_model():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, chronicle; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "chronicle.domain" not in loaded and "pydantic.main" not in loaded and "chronicle.ledger" not in loaded
