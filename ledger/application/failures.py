"""One failure path: whatever a command or a query raises is said the same way by every front door, as
its error code, a one-line message, the CLI's exit status, an HTTP status and an MCP (JSON-RPC) error
code (docs/scripting.md, "Output and exit status"). Bad input is exit 2 and a refusal exit 1; a full
disk or a lost race is said with what to do, never as `internal`; only a bug is `internal`. No message
names a library class or holds a line break or a terminal escape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...domain.errors import BadInput, BadSignature, ChronicleError, Conflict, Forbidden, NotFound, Refusal
from ...domain.limits import INT64_MAX
from ...domain.text import first_line, safe_line

# JSON-RPC's codes (an MCP request that fails answers with one): what the client asked cannot be done
# as asked, or the server failed
INVALID_PARAMS, INTERNAL_ERROR = -32602, -32603

LOST_RACE = "another writer changed the same records at the same time; nothing was written: run the command again"
TOO_BIG = f"a number is beyond the 64-bit limit (at most {INT64_MAX})"


__all__ = ["Failure", "failure", "first_line"]


@dataclass(frozen=True)
class Failure:
    """A failure as every front door says it."""

    code: str  # `bad_input`, `not_found`, `refused`, `forbidden`, `bad_signature`, `conflict`, `disk_full`, ...
    message: str  # one line
    exit_code: int  # the CLI's: 2 bad input, 1 a refusal
    http_status: int
    rpc_code: int

    @property
    def internal(self) -> bool:
        """A bug: the one failure whose cause a user cannot change (the terminal says more)."""
        return self.code == "internal"

    def document(self) -> dict[str, Any]:
        """`{"error": {"code", "message"}}`: what `--json` writes on stderr, a web write answers, a tool returns."""
        return {"error": {"code": self.code, "message": self.message}}


def failure(problem: BaseException, *, addressed: bool = False) -> Failure:
    """How PROBLEM is said: a chronicle error as it is; a value a model refused, or a number too big
    for the arithmetic or the database, as bad input; a full disk and a lost race as such; anything
    else (a bug) as `internal`, naming the exception.

    ADDRESSED: the failure is of what a request's address names (a page's campaign or character, a
    GET's parameters), where a name the ledger lacks is 404, nothing being there; a name lacking in
    what was sent (a command document, a tool's arguments) is bad input, 400, as the command line's
    exit 2 says it."""
    if isinstance(problem, ChronicleError):
        return _said(problem, addressed)
    from pydantic import ValidationError  # (loaded by whatever raised one)

    if isinstance(problem, ValidationError):
        from .commands import problem as described

        return _said(BadInput(described(problem)))
    if isinstance(problem, OverflowError):
        return _said(BadInput(TOO_BIG))
    from ..store.faults import storage_fault

    fault = storage_fault(problem)
    if fault is not None:
        return _said(fault)
    from .retries import lost_race

    if lost_race(problem):  # e.g. a batch saving once at its end: all of it was rolled back
        return _said(Conflict(LOST_RACE))
    named = type(problem).__name__
    said = f"{named}: {first_line(problem)}" if str(problem).strip() else named
    return Failure("internal", safe_line(said), 2, 500, INTERNAL_ERROR)


def _said(problem: ChronicleError, addressed: bool = False) -> Failure:
    status = http_status(problem, addressed)
    return Failure(problem.code, safe_line(str(problem)), problem.exit_code, status, rpc_code(problem))


def http_status(problem: ChronicleError, addressed: bool = False) -> int:
    """The HTTP status of a chronicle error: 401 a signature that does not verify, 403 a participant's
    role, 409 any other refusal, 507 a full disk, 400 bad input; a name or reference the ledger lacks is
    404 where the request's address named it (ADDRESSED, see `failure`), else bad input like any other."""
    from ..store.faults import DiskFull

    if isinstance(problem, NotFound):
        return 404 if addressed else 400
    for kind, status in ((BadSignature, 401), (Forbidden, 403), (Refusal, 409), (DiskFull, 507)):
        if isinstance(problem, kind):
            return status
    return 400


def rpc_code(problem: ChronicleError) -> int:
    from ..store.faults import DiskFull

    return INTERNAL_ERROR if isinstance(problem, DiskFull) else INVALID_PARAMS
