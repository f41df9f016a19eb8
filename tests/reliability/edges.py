"""What the edge tests share: a small campaign, the number of stored events, plain SQL on the read models,
and the check that a refusal is one clear line that wrote nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from chronicle.ledger.store.targets import is_postgres

from .rows import all_states


def story(run) -> None:
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    assert run("character", "add", "Bruno", "--stat", "hp=30").exit_code == 0
    assert run("roll", "2d6", "--for", "Bruno", "--reason", "first round").exit_code == 0


def exported(tmp_path: Path) -> list[str]:
    """The lines of an export of `story` (made in a SQLite ledger of its own), its closing line last."""
    from conftest import Run

    source = Run(str(tmp_path / "source.db"))
    story(source)
    return source("export").stdout.splitlines()


def stored(db: str) -> int:
    return len(all_states(db))


def sql(db: str, statement: str, params: tuple = ()) -> list[tuple]:
    """One statement with `?` marks, on either database."""
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db, autocommit=True) as connection:
            cursor = connection.execute(statement.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []
    with sqlite3.connect(db) as connection:
        return connection.execute(statement, params).fetchall()


def files(db: str) -> dict[str, bytes]:
    """Every byte of a SQLite ledger (its WAL files too); nothing for PostgreSQL."""
    if is_postgres(db):
        return {}
    path = Path(db)
    return {p.name: p.read_bytes() for p in sorted(path.parent.glob(path.name + "*"))}


def refused(result, code: int = 2, *expected: str) -> str:
    """The one line a refusal prints (exit `code`, never `internal`, never a traceback)."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal" not in lines[0] and "Traceback" not in result.output, result.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]
