"""Every command's every option and argument, given what an adversary types (NUL,
lone surrogates, escape sequences, numbers beyond 64 bits, option-like values), ends in success or in
exit 1 or 2 with one line of JSON on stderr, never the `internal` code, and a failure writes nothing.

And within a time bound per line (a line that hangs fails the test, naming it), in a campaign of
each rule system, and for every command `chronicle commands --json` lists, as command documents in
`batch --jsonl` built from its JSON schema (values of the schema's types and of any other), on SQLite and
on PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronicle.cli.main import chronicle

SKIPPED = {"serve", "demo"}  # they serve until interrupted, or write a demonstration ledger of their own
LINE_SECONDS = 30  # at most this long a line (loaded machines included): a line that hangs fails the test

NASTY = st.one_of(
    st.sampled_from(
        [
            "Bruno",
            "bruno ",
            "Nobody",
            "",
            " ",
            "Bru\x00no",
            "\x1b[2J",
            "caf\udce9",
            "\ud800",
            "-1",
            "0",
            "1",
            "#1",
            "#0",
            "#-1",
            str(2**63),
            str(-(2**63) - 1),
            "9" * 40,
            "#" + "9" * 30,
            "--json",
            "--help-me",
            "-x",
            "--",
            "=",
            "hp=" + "9" * 25,
            "d20",
            "2d6",
            "1d6" + "+1d6" * 40,
            "lethal",
            "sap",
            "death_at=-10",
            "2026-12-04T14:00:00",
            "1e9",
            "NaN",
            "½",
            "٣",
        ]
    ),
    st.integers(-(2**70), 2**70).map(str),
    st.text(max_size=12),
)


def _commands() -> list[tuple[tuple[str, ...], click.Command]]:
    found: list[tuple[tuple[str, ...], click.Command]] = []
    ctx = click.Context(chronicle)
    for name in chronicle.list_commands(ctx):
        if name in SKIPPED:
            continue
        command = chronicle.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            for sub in command.list_commands(ctx):
                subcommand = command.get_command(ctx, sub)
                assert subcommand is not None, sub
                found.append(((name, sub), subcommand))
        else:
            found.append(((name,), command))
    return found


COMMANDS = _commands()


@st.composite
def command_lines(draw) -> list[str]:
    path, command = draw(st.sampled_from(COMMANDS))
    args = list(path)
    for param in command.params:
        if isinstance(param, click.Argument):
            args += draw(st.lists(NASTY, min_size=1, max_size=2 if param.nargs == -1 else 1))
        elif param.name not in ("json_", "help") and draw(st.booleans()):
            option = param.opts[0]
            args += [option] if param.is_flag else [option, draw(NASTY)]
    return args


# A campaign of each rule system, two characters each: commands of every system reach their rules
CAMPAIGNS = {
    "adnd2e": [
        ["campaign", "new", "Greyhawk", "--system", "adnd2e"],
        ["character", "add", "Bruno", "--stat", "hp=30", "--stat", "level=3", "--stat", "str=16"],
        ["character", "add", "Alice", "--stat", "hp=20", "--stat", "level=2"],
    ],
    "potestas": [
        ["campaign", "new", "Saltmarsh", "--system", "potestas"],
        ["character", "add", "Brand", "--stat", "fort=3"],
        ["character", "add", "Bruno", "--stat", "fort=1"],
    ],
    "pendragon-pass": [
        ["campaign", "new", "Sartar", "--system", "pendragon-pass"],
        ["character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "valorous=17"],
        ["character", "add", "Bruno", "--stat", "siz=12", "--stat", "con=12"],
    ],
}
SYSTEMS = sorted(CAMPAIGNS)


def set_up(db: str, system: str) -> None:
    runner = CliRunner()
    for args in [*CAMPAIGNS[system], ["roll", "d20", "--for", "Bruno"], ["session", "start", "one"], ["verify"]]:
        result = runner.invoke(chronicle, ["--db", db, "--seed", "1", "--by", "fuzz", *args])
        assert result.exit_code == 0, (args, result.output)


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> dict[str, Path]:
    found = {}
    for system in SYSTEMS:
        db = tmp_path_factory.mktemp(f"fuzz-{system}") / "template.db"
        set_up(str(db), system)
        found[system] = db
    return found


class Hung(BaseException):  # (not an Exception: the command line's catch-all must not take it for a failure)
    pass


@contextlib.contextmanager
def bounded(what: object, seconds: int = LINE_SECONDS) -> Iterator[None]:
    """Fail (naming `what`) when the block runs longer than `seconds`."""

    def hung(*_: object) -> None:
        raise Hung(f"still running after {seconds} s: {what!r}")

    before = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def judged(result: Any, what: object) -> None:
    """Success, or exit 1 or 2 in one line of JSON that is not `internal`; never a traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (what, repr(result.exception))
    assert result.exit_code in (0, 1, 2), (what, result.output)
    if result.exit_code:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, (what, result.stderr)
        assert json.loads(lines[0])["error"]["code"] != "internal", (what, lines[0])


def snapshot(db: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(db.parent.glob(db.name + "*"))}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=command_lines(), system=st.sampled_from(SYSTEMS))
def test_every_command_fails_in_one_clear_line_and_writes_nothing(templates, tmp_path, monkeypatch, args, system):
    monkeypatch.chdir(tmp_path)  # a relative file an option names lands here
    monkeypatch.delenv("CHRONICLE_CIPHER_KEY", raising=False)
    db = tmp_path / "ledger.db"
    for leftover in tmp_path.glob("ledger.db*"):
        leftover.unlink()
    shutil.copyfile(templates[system], db)
    before = snapshot(db)

    with bounded(args):
        result = CliRunner().invoke(chronicle, ["--db", str(db), "--json", "--by", "fuzz", *args], input="")

    judged(result, args)
    if result.exit_code:
        assert snapshot(db) == before, (args, result.stderr)


# Every command document, as `batch --jsonl` runs it -----------------------------------------------------


def _schemas() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """For each rule system, each command it takes and that command's schema there (`commands --json`
    gives one of every system's variants: a system's own is its variant's, `$ref`s resolved): a document
    of another system's command is refused before it is decided."""
    from chronicle.ledger.application.commands import document_schema, in_systems

    result = CliRunner().invoke(chronicle, ["commands", "--json"])
    assert result.exit_code == 0, result.output
    found: dict[str, dict[str, list[dict[str, Any]]]] = {system: {} for system in SYSTEMS}
    for name, described in json.loads(result.stdout)["commands"].items():
        for system in described["systems"] or SYSTEMS:
            schema = document_schema(in_systems(name, [system]))
            found[system][name] = [_resolved(schema, schema.get("$defs", {}))]
    return found


def _resolved(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _resolved(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        return {key: _resolved(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [_resolved(value, defs) for value in node]
    return node


SCHEMAS = _schemas()
BEYOND = [2**63, -(2**63) - 1, 10**30]  # not 64-bit integers: a JSON line holding one is refused where it is read
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0, 1, -1, 20, 2**31, 2**63 - 1, -(2**63), *BEYOND]),
    st.floats(allow_nan=False, allow_infinity=False),
    NASTY,
)
ANY_JSON = st.recursive(
    LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NASTY, inner, max_size=3), max_leaves=6
)
NAMES = st.sampled_from(["Bruno", "Alice", "Brand", "Vasana", "bruno", "Nobody", "Greyhawk", "", "one", "1", "d20"])


def of_schema(node: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values a schema admits (names of the campaign's characters among its strings), mostly."""
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    if "anyOf" in node:
        return st.one_of([of_schema(option) for option in node["anyOf"]])
    kind = node.get("type")
    if kind == "string":
        return st.one_of(NAMES, NAMES, NASTY)
    if kind == "integer":
        low, high = node.get("minimum", -(2**63)), node.get("maximum", 2**63 - 1)
        return st.one_of(st.integers(-3, 30), st.integers(-3, 30), st.integers(low, high))
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False) | st.integers(-3, 30)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(of_schema(node.get("items", {})), max_size=3)
    if kind == "object" and "properties" in node:
        return st.fixed_dictionaries({key: of_schema(value) for key, value in node["properties"].items()})
    if kind == "object":
        return st.dictionaries(NASTY, ANY_JSON, max_size=3)
    return ANY_JSON


@st.composite
def documents(draw, system: str) -> dict[str, Any]:
    """A document for one of the commands SYSTEM takes: each property of its variant given (the required
    ones nearly always) with a value of its schema, or now and then any JSON value at all; now and then
    a property it lacks."""
    name = draw(st.sampled_from(sorted(SCHEMAS[system])))
    variant = draw(st.sampled_from(SCHEMAS[system][name]))
    required = set(variant.get("required", []))
    document: dict[str, Any] = {"command": name}
    for key, node in variant.get("properties", {}).items():
        if key == "command" or not draw(st.integers(0, 19)) < (19 if key in required else 6):
            continue
        document[key] = draw(of_schema(node) if draw(st.integers(0, 9)) else ANY_JSON)
    if not draw(st.integers(0, 19)):
        document[draw(NASTY)] = draw(ANY_JSON)
    return document


@st.composite
def batches(draw) -> tuple[str, list[dict[str, Any]]]:
    """A rule system and one to three documents of its commands."""
    system = draw(st.sampled_from(SYSTEMS))
    return system, draw(st.lists(documents(system), min_size=1, max_size=3))


def jsonl(document: dict[str, Any]) -> str:
    """A document's line as an adversary may write it: integers beyond 64 bits, lone surrogates escaped."""
    return json.dumps(document, ensure_ascii=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=batches())
def test_every_command_document_fails_in_one_clear_line_and_writes_nothing(templates, tmp_path, monkeypatch, batch):
    system, lines = batch
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHRONICLE_CIPHER_KEY", raising=False)
    db = tmp_path / "ledger.db"
    for leftover in tmp_path.glob("ledger.db*"):
        leftover.unlink()
    shutil.copyfile(templates[system], db)
    before = snapshot(db)
    text = "".join(jsonl(document) + "\n" for document in lines)

    with bounded(lines, LINE_SECONDS * len(lines)):
        result = CliRunner().invoke(
            chronicle, ["--db", str(db), "--json", "--by", "fuzz", "batch", "--jsonl", "-"], input=text
        )

    judged(result, lines)
    if result.exit_code:
        assert snapshot(db) == before, (lines, result.stderr)


@pytest.fixture(scope="module")
def postgres_ledgers(postgres_server) -> dict[str, str]:
    from conftest import fresh_postgres_database

    found = {}
    for system in SYSTEMS:
        found[system] = fresh_postgres_database(postgres_server)
        set_up(found[system], system)
    return found


def stored_events(db: str) -> int:
    import psycopg

    with psycopg.connect(db) as connection:
        row = connection.execute("SELECT COUNT(*) FROM chronicle_events").fetchone()
        assert row is not None  # (a count has its row)
        return int(row[0])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=batches())
def test_every_command_document_on_postgresql_fails_in_one_clear_line(postgres_ledgers, tmp_path, monkeypatch, batch):
    """The same on PostgreSQL, one ledger per system for every example (what succeeds stays): a failure
    adds no event."""
    system, lines = batch
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHRONICLE_CIPHER_KEY", raising=False)
    db = postgres_ledgers[system]
    before = stored_events(db)
    text = "".join(jsonl(document) + "\n" for document in lines)

    with bounded(lines, LINE_SECONDS * len(lines)):
        result = CliRunner().invoke(
            chronicle, ["--db", db, "--json", "--by", "fuzz", "batch", "--jsonl", "-"], input=text
        )

    judged(result, lines)
    if result.exit_code:
        assert stored_events(db) == before, (lines, result.stderr)
