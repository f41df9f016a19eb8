"""The witness in the browser: what a page needs to check that the campaign's history still extends the
one it saw last (static/witness.js remembers it and checks the proof).

- `GET /checkpoint?campaign=ID` -> `{"campaign", "size", "root", "ledger"}`: the campaign's stored Merkle
  tree (ledger/trust/tree.py), extended to the log's end; `ledger` names this campaign of this ledger (a SQLite
  file's real path or a PostgreSQL URL, hashed), under which a browser remembers what it saw: another
  ledger holding a campaign of the same name (a copy, a demo) is another history, not a rewritten one.
- `GET /proof?campaign=ID&from=M` -> `{"campaign", "from", "size", "root", "proof": [base64, ...]}`: an
  RFC 6962 consistency proof from the tree of the first M events to the tree now, from the stored nodes.

The stored tree keeps what it recorded: an event edited later (its hash chain recomputed) leaves the tree
as it was and the log no longer its leaves. So, before it answers, the server compares the whole tree
with the log's events (`verify`'s own comparison, ledger/trust/witness.py `audit`) whenever the log has grown
since it last did, and at least every AUDIT_EVERY seconds, spending at most a tenth of its time on it;
where they differ, both answers are 409 `{"error": {"code": "rewritten", "message"}}`, which a page
shows as loudly as a proof that fails. A rewritten tree is the proof's to catch.
"""

from __future__ import annotations

import base64
import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...domain.errors import ChronicleError, NotFound
from ...ledger.application.opened import Chronicle, hide_password, open_ledger
from ...ledger.application.queries.base import campaign_by_id
from ...ledger.application.witnessing import DamagedTree, Head, audit, extend, rebuild, seen_key, stored_tree

AUDIT_EVERY = 60.0  # seconds between two comparisons of an unchanged log with its tree
SHARE = 0.1  # at most this share of the time is spent comparing (a long log is compared less often)


class Rewritten(Exception):
    """The log no longer holds the events the stored tree recorded."""


@dataclass
class Audit:
    position: int  # the log position of the last leaf compared
    problem: str | None
    at: float
    took: float


class Witness:
    """The trees of one ledger, read through a connection of its own (comparing a long log must not hold up
    the pages), one request at a time."""

    def __init__(self, target: str, say: Callable[[str], None]):
        self.target, self.say = target, say
        self._app: Chronicle | None = None
        self._lock = threading.Lock()
        self._audits: dict[UUID, Audit] = {}

    def close(self) -> None:
        with self._lock:
            app, self._app = self._app, None
            if app is not None:
                app.close()

    # answers (in a worker thread) ---------------------------------------------------------------

    def checkpoint(self, campaign: str) -> dict[str, Any]:
        with self._lock:
            cid = self._campaign(campaign)
            head = self._head(cid)
            tree = stored_tree(self.app)
            root = _b64(tree.root(head.tree, head.size))
            named = hashlib.sha256(seen_key(cid, self.target).encode()).hexdigest()[:32]
            return {"campaign": str(cid), "size": head.size, "root": root, "ledger": named}

    def proof(self, campaign: str, old: int) -> dict[str, Any]:
        with self._lock:
            cid = self._campaign(campaign)
            head = self._head(cid)
            if old > head.size:
                raise Rewritten(
                    f"the log holds {head.size} events of this campaign, fewer than the {old} this page saw: "
                    "events were removed"
                )
            tree = stored_tree(self.app)
            proof: list[bytes] = []
            if old == 0:
                root = tree.root(head.tree, head.size)
            else:
                proof, root = tree.consistency(head.tree, old, head.size)
            return {
                "campaign": str(cid),
                "from": old,
                "size": head.size,
                "root": _b64(root),
                "proof": [_b64(hashed) for hashed in proof],
            }

    # under the lock -----------------------------------------------------------------------------

    @property
    def app(self) -> Chronicle:
        if self._app is None:
            self._app = open_ledger(self.target)
        return self._app

    def _campaign(self, given: str) -> UUID:
        cid, _, _ = campaign_by_id(self.app, given)
        return cid

    def _head(self, cid: UUID) -> Head:
        """The campaign's tree, extended to the log's end, once the comparison says it is the log's."""
        app = self.app
        try:
            head = extend(app, cid)
        except DamagedTree:
            head = rebuild(app, cid)
        done = self._audits.get(cid)
        now = time.monotonic()
        due = done is None or done.position != head.position or now - done.at >= AUDIT_EVERY
        if due and (done is None or now - done.at >= done.took / SHARE):
            problems, _ = audit(app, cid)
            problem = None if not problems else f"#{problems[0].position}: {problems[0].problem}"
            done = Audit(head.position, problem, time.monotonic(), time.monotonic() - now)
            self._audits[cid] = done
        if done is not None and done.problem is not None:
            raise Rewritten(f"the log no longer holds the history this server witnessed: {done.problem}")
        return head

    # routes -------------------------------------------------------------------------------------

    def routes(self) -> list[Route]:
        return [
            Route("/checkpoint", self._checkpoint, methods=["GET", "HEAD"]),
            Route("/proof", self._proof, methods=["GET", "HEAD"]),
        ]

    async def _checkpoint(self, request: Request) -> Response:
        return await self._answer(self.checkpoint, request.query_params.get("campaign", ""))

    async def _proof(self, request: Request) -> Response:
        given = request.query_params.get("from", "")
        if not given.isdigit() or len(given) > 18:
            return failure(400, "bad_input", "from= is the number of events a page saw (0 or more)")
        return await self._answer(self.proof, request.query_params.get("campaign", ""), int(given))

    async def _answer(self, read: Callable[..., dict[str, Any]], *args: Any) -> Response:
        try:
            found = await run_in_threadpool(read, *args)
        except Rewritten as problem:
            return failure(409, "rewritten", str(problem))
        except ChronicleError as problem:
            return failure(404 if isinstance(problem, NotFound) else 400, problem.code, str(problem))
        except Exception as problem:  # storage: the page says it cannot check now, the terminal why
            text = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
            self.say(hide_password(f"cannot check the witnessed history: {text}", self.target))
            self.close()  # the next request opens the ledger afresh
            return failure(503, "unavailable", "the history cannot be checked just now")
        return JSONResponse(found, headers={"Cache-Control": "no-store"})


def failure(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """An error as every front door gives it: `{"error": {"code", "message"}}`."""
    return JSONResponse(
        {"error": {"code": code, "message": message}},
        status_code=status,
        headers={"Cache-Control": "no-store", **(headers or {})},
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
