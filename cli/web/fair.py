"""The fair dice in the browser (docs/fair-dice.md): what a page needs to derive a fair roll's faces again
itself (static/fair.js, with Web Crypto), never what the ledger keeps secret.

- `GET /api/fair?campaign=ID&positions=N,M,...` -> `{"rolls": {"N": {"index", "seed", "device_seed",
  "rolls": [{"sides", "faces"}], "commitment": {"position", "head", "length"}}}}`: the fair rolls among
  those events of the campaign (a page's: at most 500), each with its revealed seed, its device's seed,
  the ledger's dice as recorded, and the commitment its seed must hash back to.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...domain.errors import BadInput, ChronicleError, NotFound
from ...ledger.application.opened import Chronicle, hide_password, open_ledger
from ...ledger.application.views.fair_dice import MOST, fair_rolls
from .witness import failure


class FairDice:
    """The fair rolls of one ledger, read through a connection of its own, one request at a time."""

    def __init__(self, target: str, say: Callable[[str], None]):
        self.target, self.say = target, say
        self._app: Chronicle | None = None
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            app, self._app = self._app, None
            if app is not None:
                app.close()

    def rolls(self, campaign: str, positions: list[int]) -> dict[str, Any]:
        with self._lock:
            if self._app is None:
                self._app = open_ledger(self.target)
            app = self._app
            try:
                cid = UUID(campaign)
            except ValueError:
                raise BadInput("campaign= is a campaign's id") from None
            app.index.catch_up()
            if str(cid) not in {ident for ident, _, _ in app.index.campaigns()}:
                raise NotFound("this ledger has no campaign with that id")
            return {"rolls": {str(at): found for at, found in fair_rolls(app, cid, positions).items()}}

    def routes(self) -> list[Route]:
        return [Route("/api/fair", self._rolls, methods=["GET", "HEAD"])]

    async def _rolls(self, request: Request) -> Response:
        given = request.query_params.get("positions", "")
        parts = [part for part in given.split(",") if part]
        if len(parts) > MOST or not all(part.isascii() and part.isdigit() and len(part) <= 18 for part in parts):
            return failure(400, "bad_input", f"positions= is up to {MOST} log positions, comma-separated")
        try:
            found = await run_in_threadpool(self.rolls, request.query_params.get("campaign", ""), list(map(int, parts)))
        except ChronicleError as problem:
            return failure(404 if isinstance(problem, NotFound) else 400, problem.code, str(problem))
        except Exception as problem:  # storage: the page says it cannot check now, the terminal why
            text = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
            self.say(hide_password(f"cannot read the fair dice: {text}", self.target))
            self.close()
            return failure(503, "unavailable", "the fair dice cannot be read just now")
        return JSONResponse(found, headers={"Cache-Control": "no-store"})
