"""Bad `--db` targets are refused
before anything is written to them, a ledger's encryption is decided once by its first event, and
PostgreSQL URLs never echo a secret and never have a parameter silently ignored."""

from __future__ import annotations

import sqlite3
import uuid

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import StoredEvent

from chronicle.cli.main import chronicle
from chronicle.domain.errors import BadInput
from chronicle.ledger.store.chronicle import open_ledger

from .edges import files, refused, stored, story

SECRET = "s3cr3t-Pa55"
READS = [
    ("log",),
    ("verify",),
    ("export",),
    ("character", "list"),
    ("character", "show", "Bruno"),
    ("campaign", "show"),
    ("report", "Bruno"),
    ("replay", "--ruling", "death_at=-10"),
]


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(chronicle, list(args), env=env)


@pytest.fixture
def foreign(tmp_path):
    """Another program's SQLite database."""
    path = tmp_path / "photos.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE albums (name TEXT)")
        connection.execute("INSERT INTO albums VALUES ('summer')")
    return path


@pytest.mark.parametrize("args", [*READS, ("campaign", "new", "G", "--system", "adnd2e"), ("roll", "d20")])
def test_another_programs_sqlite_file_is_refused_and_stays_byte_identical(foreign, args):
    before = files(str(foreign))
    refused(invoke("--db", str(foreign), *args), 2, "not a chronicle database", "albums")
    assert files(str(foreign)) == before


@pytest.mark.parametrize("args", READS)
def test_a_command_that_only_reads_never_creates_a_ledger(tmp_path, args):
    misspelt = tmp_path / "ledgr.db"
    refused(invoke("--db", str(misspelt), *args), 2, str(misspelt))
    assert list(tmp_path.iterdir()) == []


def test_an_empty_db_option_is_bad_input_not_the_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(invoke("--db", "", "campaign", "new", "G", "--system", "adnd2e"), 2, "--db is empty")
    assert list(tmp_path.iterdir()) == []


def test_a_blank_cipher_key_is_one_line_naming_it(run):
    refused(
        invoke("--db", run.db, "campaign", "new", "G", "--system", "adnd2e", env={"CHRONICLE_CIPHER_KEY": " "}),
        2,
        "CHRONICLE_CIPHER_KEY",
    )


def test_a_writer_opened_before_the_first_event_cannot_mix_plain_with_encrypted(run, monkeypatch):
    """A first race of writers, made deterministic: a plain writer opened the empty ledger, then an
    encrypted first event is committed; the plain writer's insert checks the first event inside its
    own transaction and refuses, writing nothing."""
    monkeypatch.delenv("CHRONICLE_CIPHER_KEY", raising=False)
    plain = open_ledger(run.db)
    try:
        key = invoke("key", "new").stdout.strip()
        monkeypatch.setenv("CHRONICLE_CIPHER_KEY", key)
        assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
        event = StoredEvent(
            originator_id=uuid.uuid4(),
            originator_version=1,
            topic="chronicle.domain.campaign:CampaignStarted",
            state=b"{}",
        )
        with pytest.raises(BadInput, match="encrypted"):
            plain.recorder.insert_events([event])
    finally:
        plain.close()
    assert stored(run.db) == 1


def test_an_encrypted_ledger_refuses_a_writer_without_the_key(run, monkeypatch):
    story(run)
    before = stored(run.db)
    monkeypatch.setenv("CHRONICLE_CIPHER_KEY", invoke("key", "new").stdout.strip())
    refused(run("roll", "d20"), 2, "CHRONICLE_CIPHER_KEY")
    assert stored(run.db) == before


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://gm@127.0.0.1:1/chronicle?password={SECRET}",
        f"postgresql://gm@127.0.0.1:1/chronicle?sslmode=require&password={SECRET}",
        f"postgresql://gm:{SECRET}@127.0.0.1:1/chronicle?application_name=x",
    ],
)
def test_a_password_in_the_query_string_is_never_echoed(url):
    for args in (("log",), ("--json", "log")):
        result = invoke("--db", url, *args)
        assert result.exit_code == 2 and SECRET not in result.output, result.output


def test_an_unsupported_url_parameter_is_refused_naming_its_environment_variable():
    line = refused(invoke("--db", "postgresql://gm@127.0.0.1:1/chronicle?sslmode=require", "log"), 2, "'sslmode'")
    assert "PGSSLMODE" in line


def test_url_parameters_libpq_takes_are_honoured(postgres_server):
    """`user` and `password` given as parameters win over the URL's own parts, as in libpq."""
    from urllib.parse import quote, urlsplit

    parts = urlsplit(postgres_server)
    url = (
        f"postgresql://nobody:wrong@{parts.hostname}:{parts.port}{parts.path}"
        f"?user={quote(parts.username or 'postgres')}&password={quote(parts.password or '')}"
    )
    assert invoke("--db", url, "rules", "falling", "10").exit_code == 0
    app = open_ledger(url)
    app.close()
