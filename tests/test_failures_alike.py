"""Every front door says a failure alike (ledger/application/failures.py): the same command failing the same
way is the same error code and message from the command line, a batch (of lines or of documents), the
shell, the table view's signed writes and an assistant's tool, with the exit status, HTTP status and MCP
error code that code has; never a traceback, and nothing written. One row per kind of failure a command can
meet, each made to happen inside the `roll` command's handler."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import pytest
from eventsourcing.persistence import IntegrityError, OperationalError
from mcp import Client
from pydantic import BaseModel
from starlette.testclient import TestClient

from chronicle.cli.assistant.desk import Desk
from chronicle.cli.assistant.server import build as assistant
from chronicle.cli.web.app import build as table_view
from chronicle.cli.web.reading import Reading
from chronicle.cli.web.writes import Writer
from chronicle.domain.errors import BadInput, BadSignature, Conflict, Forbidden, NotFound, Refusal
from chronicle.ledger.application.commands.base import HANDLERS
from chronicle.ledger.application.commands.table import Roll
from chronicle.ledger.application.failures import INTERNAL_ERROR, INVALID_PARAMS, failure
from chronicle.ledger.trust.identity import load_or_create
from chronicle.ledger.trust.signing import sign


class Strict(BaseModel):
    whole: int


def refused_model() -> Exception:
    try:
        Strict.model_validate({"whole": "many"})
    except Exception as problem:
        return problem
    raise AssertionError("the model took it")


@dataclass(frozen=True)
class Case:
    problem: Callable[[], BaseException]
    code: str
    exit: int
    http: int
    rpc: int = INVALID_PARAMS
    message: str | None = None  # (None: the exception's own words)


CASES = {
    "bad input": Case(lambda: BadInput("the notation 'd' has no faces"), "bad_input", 2, 400),
    # (a name lacking in what a door was sent: bad input, 400; a page's address lacking it is 404, below)
    "not found": Case(lambda: NotFound("no character named 'Brnad': did you mean 'Brand'?"), "not_found", 2, 400),
    "a refusal": Case(lambda: Refusal("Brand has retired from the campaign"), "refused", 1, 409),
    "a role's refusal": Case(lambda: Forbidden("Ann does not play 'Brand'"), "forbidden", 1, 403),
    "a bad signature": Case(lambda: BadSignature("that key is no participant's"), "bad_signature", 1, 401),
    "a conflict": Case(lambda: Conflict("someone else won"), "conflict", 1, 409),
    "a value a model refuses": Case(refused_model, "bad_input", 2, 400, message="'whole': must be a whole number"),
    "a number past 64 bits": Case(
        lambda: OverflowError("int too big"), "bad_input", 2, 400, message="beyond the 64-bit"
    ),
    "a full disk": Case(
        lambda: OperationalError(sqlite3.OperationalError("database or disk is full")),
        "disk_full",
        2,
        507,
        INTERNAL_ERROR,
        message="the ledger's disk is full: nothing was written",
    ),
    "a bug": Case(lambda: KeyError("sheet"), "internal", 2, 500, INTERNAL_ERROR, message="KeyError: 'sheet'"),
}


@pytest.fixture
def table(run_sqlite, monkeypatch) -> Iterator[Any]:
    run_sqlite.json("campaign", "new", "Greyhawk", "--system", "potestas")
    run_sqlite.json("character", "add", "Brand", "--stat", "fort=3")
    yield run_sqlite


def failing(monkeypatch: pytest.MonkeyPatch, case: Case) -> None:
    """The `roll` command's handler fails as CASE says (nothing decided, nothing written)."""

    def handler(session: Any, command: Roll) -> Any:
        raise case.problem()

    handlers: dict[Any, Any] = HANDLERS
    monkeypatch.setitem(handlers, Roll, handler)


def events(db: str) -> int:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]


def said(found: dict[str, Any], case: Case) -> None:
    """A front door's `{"error": {"code", "message"}}` is the failure's."""
    expected = failure(case.problem())
    assert set(found) == {"error"} and found["error"]["code"] == case.code
    assert found["error"]["message"].endswith(expected.message)  # (a batch's names its line first)
    if case.message is not None:
        assert case.message in found["error"]["message"]
    assert "\n" not in found["error"]["message"] and "Traceback" not in found["error"]["message"]


@pytest.mark.parametrize("name", list(CASES))
def test_the_failure_itself(name):
    case = CASES[name]
    found = failure(case.problem())
    assert (found.code, found.exit_code, found.http_status, found.rpc_code) == (
        case.code,
        case.exit,
        case.http,
        case.rpc,
    )
    assert found.internal == (case.code == "internal")


def test_a_name_the_ledger_lacks_is_bad_input_when_sent_and_not_found_when_a_pages_address_holds_it():
    """A command document naming a character the campaign lacks is bad input (400, as the command line's
    exit 2); a page whose address names it is not there (404). Nothing else depends on where it happened."""
    lacking = NotFound("no character in campaign 'Greyhawk' named 'Brnad'")
    sent, addressed = failure(lacking), failure(lacking, addressed=True)
    assert (sent.code, sent.exit_code, sent.http_status, sent.rpc_code) == ("not_found", 2, 400, INVALID_PARAMS)
    assert (addressed.code, addressed.exit_code, addressed.http_status) == ("not_found", 2, 404)
    for case in CASES.values():
        if case.code != "not_found":
            assert failure(case.problem(), addressed=True) == failure(case.problem())


@pytest.mark.parametrize("name", list(CASES))
def test_the_command_line_a_batch_and_the_shell_say_it_alike(table, monkeypatch, name):
    case = CASES[name]
    before = events(table.db)
    failing(monkeypatch, case)
    for args, given in [
        (("roll", "d20"), None),
        (("batch", "-"), "roll d20\n"),
        (("batch", "--jsonl", "-"), '{"command": "roll", "notation": "d20"}\n'),
    ]:
        done = table("--json", *args, input=given)
        assert done.exit_code == case.exit, (args, done.stderr)
        said(json.loads(done.stderr), case)
    shell = table("--json", "shell", input="roll d20\n")
    assert shell.exit_code == 0  # the shell goes on: the line's failure is said, and the next line read
    said(json.loads(shell.stderr.strip().splitlines()[-1]), case)
    assert events(table.db) == before


@pytest.mark.parametrize("name", list(CASES))
def test_the_table_views_writes_and_an_assistant_say_it_alike(table, monkeypatch, name):
    case = CASES[name]
    before = events(table.db)
    failing(monkeypatch, case)
    campaign = table.json("campaign", "show")["id"]
    document = {"command": "roll", "notation": "d20"}
    signed = sign(load_or_create(), campaign, document, f"nonce-{name}")
    terminal: list[str] = []
    reading, writer = Reading(table.db), Writer(table.db, terminal.append)
    try:
        with TestClient(table_view(reading, terminal.append, writes=writer)) as client:
            answer = client.post("/api/commands", json={"campaign": campaign, **signed.model_dump()})
    finally:
        writer.close()
        reading.close()
    if case.code == "internal":  # a bug's words stay on the server's terminal, not with whoever wrote
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "unavailable"
        assert any(case.message in line for line in terminal if case.message), terminal
    else:
        assert answer.status_code == case.http, answer.text
        said(answer.json(), case)

    async def call() -> Any:
        async with Client(assistant(Desk(table.db, "gm", None, True))) as client:
            return await client.call_tool("roll", {"notation": "d20"})

    result = anyio.run(call)
    assert result.is_error
    said(result.structured_content, case)
    assert result.content[0].text == f"Error: {result.structured_content['error']['message']}"
    assert events(table.db) == before


def test_a_lost_race_is_a_conflict_after_the_retries_from_every_door(table, monkeypatch):
    """Another writer always winning: each door tries again, then says so (exit 1, 409), writing nothing."""
    monkeypatch.setattr("chronicle.ledger.application.retries.RETRIES", 2)
    monkeypatch.setattr("chronicle.ledger.application.retries.backoff", lambda attempt: None)
    failing(monkeypatch, Case(lambda: IntegrityError("version taken"), "conflict", 1, 409))
    for args, given in [(("roll", "d20"), None), (("batch", "-"), "roll d20\n")]:
        done = table("--json", *args, input=given)
        assert done.exit_code == 1
        error = json.loads(done.stderr)["error"]
        assert error["code"] == "conflict" and "after 2 tries" in error["message"]
    with pytest.raises(Conflict, match="after 2 tries"):
        from chronicle.cli.assistant.tools import call

        call(Desk(table.db, "gm", None, True), "roll", {"notation": "d20"})
