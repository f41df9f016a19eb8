"""Shared fixtures: a fresh ledger on SQLite and on PostgreSQL, and a way to run the CLI."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from chronicle.cli.main import chronicle

ROOT = Path(__file__).resolve().parent.parent

# Piped output is as wide as $COLUMNS (cli/output.py). pytest-xdist's workers get COLUMNS=80 and LINES=24
# from their launcher; the tests read what a pipe with none set gets, on one worker or many.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


WORKERS = 5  # at most: each worker may start a dozen processes, a browser and a PostgreSQL pool of its own


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (the default options): a worker more than the cores, up to WORKERS. Many tests wait on
    processes, servers and browsers they start: on 2 cores, 3 workers ran the suite in 526 s, 2 in 634 s."""
    return max(1, min((os.cpu_count() or 1) + 1, WORKERS))


@pytest.fixture(scope="session", autouse=True)
def chronicle_home(tmp_path_factory):
    """The user's folder (identity, witnessed checkpoints) of every test and the processes it starts: never
    the real one."""
    home = tmp_path_factory.mktemp("chronicle-home")
    os.environ["CHRONICLE_HOME"] = str(home)
    return home


@pytest.fixture(autouse=True)
def bulk_page_cache(monkeypatch):
    """Each test's ledgers open with the commands' page cache: a test that runs `shell`, `serve` or `mcp` in
    this process turns the process's own to theirs (ledger/store/sqlite.py, `staying_up`) for itself only."""
    from chronicle.ledger.store import sqlite as durable_sqlite

    monkeypatch.setattr(durable_sqlite, "CACHE", durable_sqlite.BULK_CACHE)


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server URL: $CHRONICLE_TEST_POSTGRES (CI starts one), else a throw-away
    cluster started here; the Postgres tests skip, saying why, only when none can be started."""
    url = os.environ.get("CHRONICLE_TEST_POSTGRES")
    if url:
        yield url
        return
    folder = tempfile.mkdtemp(prefix="chronicle-pg-")
    started = subprocess.run([str(ROOT / ".ci/pg-start"), folder, str(_free_port())], capture_output=True, text=True)
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"no PostgreSQL server could be started: {started.stderr.strip() or started.stdout.strip()}")
    yield started.stdout.strip()
    owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    pg_ctl = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))[-1]
    subprocess.run([*owner, str(pg_ctl), "-D", f"{folder}/data", "-m", "immediate", "stop"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def fresh_postgres_database(server: str) -> str:
    import psycopg

    name = f"chronicle_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path) -> str:
    """An empty ledger target on each storage."""
    if request.param == "sqlite":
        return str(tmp_path / "ledger.db")
    return fresh_postgres_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def sqlite_db(tmp_path) -> str:
    return str(tmp_path / "ledger.db")


class Run:
    """Runs `chronicle --db DB ...` in-process through Click's CliRunner."""

    def __init__(self, db: str):
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None, by: str = "gm"):
        return self.runner.invoke(
            chronicle, ["--db", self.db, "--by", by, "--seed", "7", *args], input=input, catch_exceptions=False
        )

    def json(self, *args: str, **kwargs):
        result = self("--json", *args, **kwargs)
        assert result.exit_code == 0, result.stderr + result.stdout
        return json.loads(result.stdout)


@pytest.fixture
def run(db) -> Run:
    return Run(db)


@pytest.fixture
def run_sqlite(sqlite_db) -> Run:
    return Run(sqlite_db)


def campaign_of(app, name: str) -> uuid.UUID:
    """A campaign's id, as its ledger's index has it (ids are drawn at random: never derived from a name)."""
    app.index.catch_up()
    return uuid.UUID(next(ident for ident, known, _ in app.index.campaigns() if known == name))
