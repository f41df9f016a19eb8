"""The table writes (`serve --writes`): command documents signed on the participants' own devices.

- `POST /api/commands` takes `{"document": {...}, "key": "ed25519:BASE64", "nonce": STRING, "signature":
  BASE64}` (and `"campaign": ID`, which the pages send; without it, the campaign whose participant holds
  the key). The application layer decides, as the key's participant, in one transaction that also spends
  the nonce: 200 with the command's `--json` document plus `"sentences"` (what it decided, as the CLI
  says it); 400 bad input, 401 a missing or bad signature or a nonce seen before, 403 a role refusal, 409
  a rules refusal, 413 a body past 64 KiB, 429 too many from one key; each `{"error": {"code", "message"}}`,
  and nothing written on any of them.
- `GET /api/me?campaign=ID&key=KEY`: whose key it is there (name, role, characters) and the forms of the
  actions that participant may take in the campaign's system, as JSON Schemas (the command documents').
- `GET /join/TOKEN`: the page that makes this device's key and joins by the invitation (static/join.js
  signs `participant join` with it).

Every write runs in a worker thread, one at a time, never on the event loop.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...domain.errors import BadInput, BadSignature, ChronicleError, Forbidden, NotFound, Refusal
from ...domain.events import Signed
from ...domain.participants import Participant, check_key, holder, invitation_hash
from ...ledger.application import commands
from ...ledger.application.ledger import Ledger
from ...ledger.application.session import Session
from ...ledger.store.chronicle import hide_password
from ...ledger.trust.invitations import invitation_book
from ...ledger.trust.signing import valid
from .security import BODY, Buckets, TooLarge, bounded_body
from .witness import failure

JOIN = "participant join"
# the forms a page offers: a character's common actions, then the gm's own (a player sees those their role allows)
COMMON = ("injure", "rest", "roll", "check", "first-aid", "dying-save", "status award", "note")
GM_ONLY = ("amend", "session start", "session end", "winter")
TITLES = {"first-aid": "First aid", "dying-save": "Dying save", "session start": "Start a session"}
TITLES |= {"session end": "End the session", "status award": "Award Status", "amend": "Correct an event"}
ASKED = {"document", "key", "nonce", "signature", "campaign"}
NONCE = 200  # characters a nonce may have

Render = Callable[..., Response]


class Unsigned(Exception):
    """A write without a usable key, nonce or signature (401)."""


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


def status_of(problem: ChronicleError) -> int:
    if isinstance(problem, BadSignature):
        return 401
    if isinstance(problem, Forbidden):
        return 403
    if isinstance(problem, Refusal):
        return 409
    return 400


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
                ident, name = self._campaign_for(asked)
                if not valid(asked.signed, ident):
                    raise BadSignature(
                        "the signature does not verify for this document, nonce and campaign: nothing was written"
                    )
                self.ledger.campaign = name
                reply = self.ledger.execute_document(asked.document, asked.signed)
                return {**reply.document, "sentences": reply.text}
            except ChronicleError:
                raise
            except Exception:
                self.ledger.close()  # the next write opens the ledger afresh
                raise

    def me(self, campaign: str, key: str) -> dict[str, Any]:
        with self._lock:
            try:
                name, system = self._known(campaign)
                session = Session(self.ledger.app, name, "serve")
                found = holder(session.campaign.participants, key) if key else None
                return {
                    "campaign": {"id": campaign, "name": name, "system": system},
                    "participant": _participant(found),
                    "characters": self._characters(campaign, found),
                    "actions": actions(system, found.role) if found is not None else [],
                }
            except ChronicleError:
                raise
            except Exception:
                self.ledger.close()
                raise

    def invitation(self, token: str) -> dict[str, Any]:
        """What the join page says of a token: its state (open, used, expired, unknown) and whom it invites."""
        with self._lock:
            try:
                found = invitation_book(self.ledger.app).find(invitation_hash(token))
                if found is None:
                    return {"state": "unknown"}
                index = self.ledger.app.index
                index.catch_up()
                named = {ident: name for ident, name, _ in index.campaigns()}
                ids = {who: ident for ident, who, _ in index.characters(UUID(found.campaign))}
                playing = [ids[name] for name in found.plays if name in ids]
                state = "used" if found.used else "expired" if found.expires < datetime.now(UTC) else "open"
                return {
                    "state": state,
                    "name": found.name,
                    "role": found.role,
                    "plays": list(found.plays),
                    "campaign": named.get(found.campaign, ""),
                    "campaign_id": found.campaign,
                    "expires": found.expires.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC"),
                    "next": f"/character/{playing[0]}" if playing else "/",
                }
            except Exception:
                self.ledger.close()
                raise

    # under the lock -------------------------------------------------------------------------------

    def _known(self, campaign: str) -> tuple[str, str]:
        index = self.ledger.app.index
        index.catch_up()
        found = next(((name, system) for ident, name, system in index.campaigns() if ident == campaign), None)
        if found is None:
            raise NotFound("this ledger has no campaign with that id")
        return found

    def _campaign_for(self, asked: Asked) -> tuple[UUID, str]:
        """The campaign a write is for: a join's invitation's; the one the request names; else the one
        whose participant holds the key (or the ledger's only campaign)."""
        index = self.ledger.app.index
        index.catch_up()
        known = {ident: name for ident, name, _ in index.campaigns()}
        if asked.document.get("command") == JOIN:
            token = asked.document.get("invitation")
            found = invitation_book(self.ledger.app).find(invitation_hash(token)) if isinstance(token, str) else None
            if found is None or found.campaign not in known:
                raise BadSignature("that invitation is none this server knows: ask the gm for a new link")
            return UUID(found.campaign), known[found.campaign]
        if asked.campaign is not None:
            if asked.campaign not in known:
                raise NotFound("this ledger has no campaign with that id")
            return UUID(asked.campaign), known[asked.campaign]
        key = asked.signed.key
        app = self.ledger.app
        holding = [i for i, name in known.items() if holder(Session(app, name, "serve").campaign.participants, key)]
        chosen = holding[0] if len(holding) == 1 else next(iter(known)) if len(known) == 1 else None
        if chosen is None:
            raise BadInput('say which campaign the write is for: "campaign": its id (each page gives it)')
        return UUID(chosen), known[chosen]

    def _characters(self, campaign: str, found: Participant | None) -> list[str]:
        if found is None:
            return []
        if found.role == "player":
            return list(found.plays)
        return [who for _, who, _ in self.ledger.app.index.characters(UUID(campaign))]

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
        except TooLarge:
            return failure(413, "too_large", f"a write's request holds at most {BODY // 1024} KiB")
        except Unsigned as problem:
            return failure(401, BadSignature.code, str(problem))
        except BadInput as problem:
            return failure(400, problem.code, str(problem))
        wait = self.buckets.take(wanted.signed.key)
        if wait:
            seconds = math.ceil(wait)
            later = f"too many writes from this key: try again in {seconds} s"
            return failure(429, "too_many", later, {"Retry-After": str(seconds)})
        try:
            done = await run_in_threadpool(self.execute, wanted)
        except ChronicleError as problem:
            return failure(status_of(problem), problem.code, str(problem))
        except Exception as problem:
            self._failed(request, problem)
            return failure(503, "unavailable", "the write could not be made: the terminal running the server says why")
        return JSONResponse(done, headers={"Cache-Control": "no-store"})

    async def _me(self, request: Request) -> Response:
        campaign, key = request.query_params.get("campaign", ""), request.query_params.get("key", "")
        try:
            if key:
                check_key(key)
            found = await run_in_threadpool(self.me, campaign, key)
        except ChronicleError as problem:
            return failure(404 if isinstance(problem, NotFound) else 400, problem.code, str(problem))
        except Exception as problem:
            self._failed(request, problem)
            return failure(503, "unavailable", "the ledger cannot be read just now")
        return JSONResponse(found, headers={"Cache-Control": "no-store"})

    def _failed(self, request: Request, problem: Exception) -> None:
        text = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
        self.say(hide_password(f"error on {request.url.path}: {type(problem).__name__}: {text}", self.target))


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


def _participant(found: Participant | None) -> dict[str, Any] | None:
    return None if found is None else {"name": found.name, "role": found.role, "plays": list(found.plays)}


def actions(system: str, role: str) -> list[dict[str, Any]]:
    """The forms of a participant of ROLE in a campaign of SYSTEM: per action its command, a title, its
    summary, who may (`role`), the field naming the character it acts on, and its document's schema."""
    found = []
    for name in COMMON + GM_ONLY:
        try:
            model = commands.model_for(name, system)
        except BadInput:  # not a command of this system
            continue
        if role != "gm" and model.role != "player":
            continue
        field = model.model_fields.get(model.character) if model.character else None
        found.append(
            {
                "command": name,
                "title": TITLES.get(name, name.capitalize()),
                "summary": " ".join(commands.summary_of(model).split()),
                "role": model.role,
                "character": (field.alias or model.character) if field is not None else None,
                "campaign": name in GM_ONLY,
                "schema": commands.schema_of(model),
            }
        )
    return found
