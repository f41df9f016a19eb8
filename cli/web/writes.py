"""The table writes (`serve --writes`): command documents signed on the participants' own devices.

- `POST /api/commands` takes `{"document": {...}, "key": "ed25519:BASE64", "nonce": STRING, "signature":
  BASE64}` (and `"campaign": ID`, which the pages send; without it, the campaign whose participant holds
  the key). The application layer decides, as the key's participant, in one transaction that also spends
  the nonce: 200 with the command's `--json` document plus `"sentences"` (what it decided, as the CLI
  says it); 400 bad input (a character or name the campaign lacks included: the CLI's exit 2), 401 a
  missing or bad signature or a nonce seen before, 403 a role refusal, 409 a rules refusal, 413 a body
  past 64 KiB, 429 too many from one key, 507 a full disk; each `{"error": {"code", "message"}}`
  (ledger/application/failures.py), and nothing written on any of them.
- `GET /api/me?campaign=ID&key=KEY[&character=NAME]`: whose key it is there (name, role, characters) and
  the forms of the actions that participant may take in the campaign's system, as JSON Schemas (the command
  documents'), each field the sheet or the rules know an `enum`: with `character`, the forms acting through
  that character (its player's or a gm's) that can apply now; without, the table-wide ones (a gm's).
- `GET /join/TOKEN`: the page that makes this device's key and joins by the invitation (static/join.js
  signs `participant join` with it).

Every write runs in a worker thread, one at a time, never on the event loop.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...domain.errors import BadInput, BadSignature, ChronicleError
from ...domain.events import Signed
from ...domain.participants import check_key
from ...ledger.application.failures import failure as said
from ...ledger.application.failures import first_line
from ...ledger.application.keys import invitation_book, valid
from ...ledger.application.ledger import Ledger
from ...ledger.application.opened import hide_password
from ...ledger.application.queries.devices import InvitationState, ParticipantOf, SignedFor
from .security import BODY, Abandoned, Buckets, TooLarge, bounded_body
from .witness import failure

ASKED = {"document", "key", "nonce", "signature", "campaign"}
NONCE = 200  # characters a nonce may have

Render = Callable[..., Response]


class Unsigned(Exception):
    """A write without a usable key, nonce or signature (401)."""


class TooMany(Exception):
    """A key past its burst of writes (429): the seconds until it may write again."""

    def __init__(self, wait: float):
        super().__init__(wait)
        self.wait = wait


@dataclass(frozen=True)
class Asked:
    document: dict[str, Any]
    signed: Signed
    campaign: str | None


def asked(body: bytes) -> Asked:
    """A write's request, read; bad input names what is wrong, Unsigned what is missing of the signature."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise BadInput('the request is a JSON object: {"document": {...}, "key", "nonce", "signature"}') from None
    if not isinstance(data, dict):
        raise BadInput('the request is a JSON object: {"document": {...}, "key", "nonce", "signature"}')
    unknown = sorted(set(data) - ASKED)
    if unknown:
        raise BadInput(f"unknown key {unknown[0][:40]!r} in the request")
    document = data.get("document")
    if not isinstance(document, dict):
        raise BadInput('"document" is the command document, a JSON object: {"command": NAME, ...}')
    key, nonce, signature = data.get("key"), data.get("nonce"), data.get("signature")
    if not all(isinstance(value, str) and value for value in (key, nonce, signature)):
        raise Unsigned('a write is signed: "key", "nonce" and "signature" are required')
    assert isinstance(key, str) and isinstance(nonce, str) and isinstance(signature, str)
    try:
        check_key(key)
    except BadInput as problem:
        raise Unsigned(str(problem)) from None
    if len(nonce) > NONCE or not nonce.isprintable():
        raise BadInput(f"a nonce is 1 to {NONCE} printable characters")
    campaign = data.get("campaign")
    if campaign is not None and not isinstance(campaign, str):
        raise BadInput('"campaign" is the campaign\'s id')
    return Asked(document, Signed(document=document, nonce=nonce, key=key, signature=signature), campaign)


class Writer:
    """The ledger as the server writes it: as the participant whose key signed each document (the
    application layer names them; `by_given=False`), one write at a time."""

    def __init__(self, target: str, say: Callable[[str], None]):
        self.target, self.say = target, say
        self.ledger = Ledger(target, by="serve", by_given=False)
        self.buckets = Buckets()
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self.ledger.close()

    def note_address(self, address: str) -> None:
        """Where this server listens, for the links `participant invite` prints."""
        with self._lock:
            invitation_book(self.ledger.app).note_address(address)

    # in a worker thread ---------------------------------------------------------------------------

    def execute(self, asked: Asked) -> dict[str, Any]:
        with self._lock:
            try:
                document = asked.document
                token = document.get("invitation")
                found = SignedFor(
                    command=str(document.get("command")),
                    invitation=token if isinstance(token, str) else None,
                    campaign=asked.campaign,
                    key=asked.signed.key,
                )
                target = self.ledger.ask(found).document
                self.ledger.campaign = target["name"]
                # a document that fits no command is bad input (400), one no device sends refused (403), whatever
                # its signature; then the signature, and only then the key's burst (junk costs its owner nothing)
                command = self.ledger.read_document(document, asked.signed)
                if not valid(asked.signed, target["id"]):
                    raise BadSignature(
                        "the signature does not verify for this document, nonce and campaign: nothing was written"
                    )
                wait = self.buckets.take(asked.signed.key)
                if wait:
                    raise TooMany(wait)
                reply = self.ledger.execute(command, asked.signed, verified=UUID(target["id"]))
                return {**reply.document, "sentences": reply.text}
            except (ChronicleError, TooMany):
                raise
            except Exception:
                self.ledger.close()  # the next write opens the ledger afresh
                raise

    def me(self, campaign: str, key: str, character: str | None = None) -> dict[str, Any]:
        return self._ask(ParticipantOf(campaign=campaign, key=key or None, character=character))

    def invitation(self, token: str) -> dict[str, Any]:
        """What the join page says of a token: its state (open, used, expired, unknown) and whom it invites."""
        return self._ask(InvitationState(token=token))

    def _ask(self, query: Any) -> dict[str, Any]:
        with self._lock:
            try:
                return self.ledger.ask(query).document
            except ChronicleError:
                raise
            except Exception:
                self.ledger.close()
                raise

    # routes ---------------------------------------------------------------------------------------

    def routes(self, render: Render) -> list[Route]:
        async def join(request: Request) -> Response:
            token = request.path_params["token"]
            try:
                found = await run_in_threadpool(self.invitation, token) if len(token) <= NONCE else {"state": "unknown"}
            except Exception as problem:
                self._failed(request, problem)
                return render(request, "error.html", 503, title="The ledger cannot be read", problem="Try again soon.")
            status = 200 if found["state"] == "open" else 404 if found["state"] == "unknown" else 410
            return render(request, "join.html", status, invitation=found, token=token, quiet=True)

        return [
            Route("/api/commands", self._commands, methods=["POST"]),
            Route("/api/me", self._me, methods=["GET", "HEAD"]),
            Route("/join/{token}", join, methods=["GET", "HEAD"]),
        ]

    async def _commands(self, request: Request) -> Response:
        try:
            wanted = asked(await bounded_body(request))
        except Abandoned:  # the client went away mid-body: nothing to answer, nothing to say
            return Response(status_code=400)
        except TooLarge:
            return failure(413, "too_large", f"a write's request holds at most {BODY // 1024} KiB")
        except Unsigned as problem:
            return failure(401, BadSignature.code, str(problem))
        except BadInput as problem:
            return answer(said(problem))
        try:
            done = await run_in_threadpool(self.execute, wanted)
        except TooMany as many:
            seconds = math.ceil(many.wait)
            later = f"too many writes from this key: try again in {seconds} s"
            return failure(429, "too_many", later, {"Retry-After": str(seconds)})
        except Exception as problem:
            found = said(problem)
            if not found.internal:
                return answer(found)
            self._failed(request, problem)
            return failure(503, "unavailable", "the write could not be made: the terminal running the server says why")
        return JSONResponse(done, headers={"Cache-Control": "no-store"})

    async def _me(self, request: Request) -> Response:
        campaign, key = request.query_params.get("campaign", ""), request.query_params.get("key", "")
        try:
            if key:
                check_key(key)
            character = request.query_params.get("character") or None
            found = await run_in_threadpool(self.me, campaign, key, character)
        except Exception as problem:
            answered = said(problem, addressed=True)  # a campaign the GET's address names: 404 if lacking
            if not answered.internal:
                return answer(answered)
            self._failed(request, problem)
            return failure(503, "unavailable", "the ledger cannot be read just now")
        return JSONResponse(found, headers={"Cache-Control": "no-store"})

    def _failed(self, request: Request, problem: Exception) -> None:
        self.say(
            hide_password(f"error on {request.url.path}: {type(problem).__name__}: {first_line(problem)}", self.target)
        )


def answer(found: Any) -> Response:
    """A failure (`ledger/application/failures.py`) as every web answer gives it."""
    return failure(found.http_status, found.code, found.message)


def address_of(host: str, port: int, scheme: str = "http") -> str:
    """The URL base an invitation's link starts with: where this server listens, as another device reaches
    it (for every address of the machine, 0.0.0.0 or ::, the one its default route leaves by)."""
    import ipaddress
    import socket

    shown = host
    try:
        unspecified = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        unspecified = False
    if unspecified:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("192.0.2.1", 9))  # (no packet is sent: this only picks the route)
                shown = probe.getsockname()[0]
        except OSError:
            shown = "127.0.0.1"
    return f"{scheme}://[{shown}]:{port}" if ":" in shown else f"{scheme}://{shown}:{port}"
