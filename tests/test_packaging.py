"""chronicle as a new user installs it: `pip install .` (a wheel, not the editable install the tests run on).

The wheel is built from a copy of the sources, installed into a fresh virtual environment whose only
chronicle is the wheel's (the dependencies come from this interpreter's site-packages through a path
entry, so nothing is downloaded again and the editable install's import hook is never loaded), and one
command of each rule system runs through that environment's own `chronicle` executable.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE_FOLDERS = ("chronicle", "domain", "ledger", "projections", "cli")
ASSETS = (".html", ".css", ".js", ".png", ".svg", ".ico")
README_LIMIT = 10 * 1024
TEST_COMMAND = "python3 -m pytest"


def test_the_readme_stays_short_enough_for_a_newcomer() -> None:
    size = (ROOT / "README.md").stat().st_size
    assert size < README_LIMIT, f"README.md is {size} bytes; keep it under {README_LIMIT} (move detail to docs/)"


def test_the_readme_gives_the_set_up_and_the_test_command_that_ci_runs() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    assert 'pip install -e ".[test]" && chronicle demo\n' in blocks
    assert f"{TEST_COMMAND}\n" in blocks, "the README's test command is a block of its own"
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert any(line.startswith(f"{TEST_COMMAND} ") or line == TEST_COMMAND for line in ci_lines)


def test_every_document_the_readme_links_to_exists() -> None:
    links = re.findall(r"\]\(([^)#]+\.md)\)", (ROOT / "README.md").read_text())
    assert "benchmarks/README.md" in links and "docs/cli.md" in links
    missing = [link for link in links if not (ROOT / link).is_file()]
    assert not missing, f"README.md links to {missing}, which do not exist"


def test_the_readme_tour_runs_as_written(run_sqlite) -> None:
    """Each line of the tour (after its `export CHRONICLE_DB=...`, which the fixture's --db stands for) succeeds."""
    readme = (ROOT / "README.md").read_text()
    (tour,) = [block for block in re.findall(r"```sh\n(.*?)```", readme, flags=re.S) if "session start" in block]
    for line in tour.splitlines():
        words = shlex.split(line, comments=True)
        if not words or words[0] == "export":
            continue
        assert words[0] == "chronicle", line
        result = run_sqlite(*words[1:])
        assert result.exit_code == 0, f"{line}\n{result.output}"


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the wheel is built from, so a build leaves nothing in the working tree."""
    copy = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    for folder in SOURCE_FOLDERS:
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return copy


@pytest.fixture(scope="module")
def wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(source)])
    (built,) = dist.glob("chronicle_ledger-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("venv") / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", str(home)])
    python = home / "bin" / "python"
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip())
    # the dependencies (and pip) from this interpreter: plain path entries, so its .pth files (the
    # editable install's finder among them) are not run in the new environment
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib"), *site.getsitepackages()}
    (purelib / "_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    _run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--ignore-installed", str(wheel)])
    return home


def test_the_wheel_holds_every_module_and_asset_of_the_source_tree(source: Path, wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        packed = set(archive.namelist())
    expected = set()
    for folder in SOURCE_FOLDERS:
        for path in (source / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and (path.suffix == ".py" or path.suffix in ASSETS):
                inside = path.relative_to(source / folder).as_posix()
                expected.add("chronicle/" + inside if folder == "chronicle" else f"chronicle/{folder}/{inside}")
    missing = sorted(expected - packed)
    assert not missing, f"the wheel lacks {missing}: a package without __init__.py, or an asset pyproject.toml omits"
    assert "chronicle/cli/systems/potestas.py" in packed


def test_the_installed_package_is_the_wheel_not_the_working_tree(venv: Path) -> None:
    show_files = "import chronicle, chronicle.cli.systems as s; print(chronicle.__file__); print(s.__file__)"
    # run in the environment, not the repository, whose chronicle/ folder would shadow the installed package
    where = _run([str(venv / "bin" / "python"), "-c", show_files], cwd=venv)
    for line in where.split():
        assert Path(line).resolve().is_relative_to(venv.resolve()), f"{line} is not inside the new environment"


@pytest.mark.parametrize(
    ("system", "stats", "injury", "expect"),
    [
        ("potestas", ["--stat", "fort=5"], ["--damage", "12", "--save-roll", "10"], {"outcome": "wound"}),
        ("adnd2e", ["--stat", "hp=20"], ["--damage", "6", "--mode", "lethal"], {"real": 6}),
        ("pendragon-pass", ["--stat", "siz=15", "--stat", "con=13"], ["--damage", "5"], {"damage": 5}),
    ],
)
def test_each_system_runs_through_the_installed_chronicle(
    venv: Path, tmp_path: Path, system: str, stats: list[str], injury: list[str], expect: dict[str, object]
) -> None:
    chronicle = [str(venv / "bin" / "chronicle"), "--db", str(tmp_path / "table.db"), "--json"]
    _run([*chronicle, "campaign", "new", "Trial", "--system", system], cwd=tmp_path)
    _run([*chronicle, "character", "add", "Hero", *stats], cwd=tmp_path)
    injured = json.loads(_run([*chronicle, "injure", "Hero", *injury], cwd=tmp_path))
    assert injured["version"] == 2
    assert {key: injured[key] for key in expect} == expect


def _run(command: list[str], cwd: Path | None = None) -> str:
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("CHRONICLE_", "PYTHON", "PIP_"))
    }
    environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=environment, timeout=300)
    assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout
