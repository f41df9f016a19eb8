"""The packages import as docs/design.md (Packages) says, at the top of a module or inside a function alike:
the rules are pure, read models read only the rules, the ledger knows no front door, a front door takes the
application layer's public names and no storage or trust internals, and only the store touches a library's
private names."""

from __future__ import annotations

import re
from collections.abc import Iterable

from imports import ROOT, Import, product_imports

DOORS = ("chronicle.cli",)  # the CLI, batch, the shell, the table view (cli/web) and the assistant (cli/assistant)
DATABASES = ("sqlite3", "psycopg", "psycopg_pool")


def within(name: str, *packages: str) -> bool:
    return any(name == package or name.startswith(f"{package}.") for package in packages)


def project(entry: Import) -> bool:
    return within(entry.source, "chronicle")


def broken(rule: Iterable[Import]) -> list[str]:
    return [f"{entry.where} imports {entry.source} {entry.name or ''}".strip() for entry in rule]


def test_the_rules_import_nothing_of_the_project_outside_them() -> None:
    rule = (e for e in product_imports() if within(e.module, "chronicle.domain") and project(e))
    assert broken(e for e in rule if not within(e.source, "chronicle.domain")) == []


def test_read_models_import_only_the_rules() -> None:
    rule = (e for e in product_imports() if within(e.module, "chronicle.projections") and project(e))
    assert broken(e for e in rule if not within(e.source, "chronicle.domain", "chronicle.projections")) == []


def test_the_ledger_imports_no_front_door() -> None:
    rule = (e for e in product_imports() if within(e.module, "chronicle.ledger"))
    assert broken(e for e in rule if within(e.source, *DOORS)) == []


def test_front_doors_take_the_application_layers_public_names_only() -> None:
    doors = [e for e in product_imports() if within(e.module, *DOORS)]
    inside = [e for e in doors if within(e.source, "chronicle.ledger", "chronicle.projections")]
    assert broken(e for e in inside if not within(e.source, "chronicle.ledger.application")) == []
    assert broken(e for e in inside if (e.name or "").startswith("_") or "._" in e.source) == []


def test_front_doors_run_no_sql_of_their_own() -> None:
    doors = [e for e in product_imports() if within(e.module, *DOORS)]
    assert broken(e for e in doors if within(e.source, *DATABASES)) == []


def test_only_the_store_imports_a_librarys_private_names() -> None:
    def private(entry: Import) -> bool:
        parts = [*entry.source.split("."), entry.name or ""]
        return any(part.startswith("_") and not part.startswith("__") for part in parts)

    outside = (e for e in product_imports() if not project(e) and not within(e.module, "chronicle.ledger.store"))
    assert broken(e for e in outside if private(e)) == []


def test_no_front_door_writes_a_statement_of_sql() -> None:
    statement = re.compile(r"\b(SELECT\s+\S.*\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+TABLE)\b")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "cli").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if statement.search(line)
    ]
    assert found == []
