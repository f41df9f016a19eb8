"""What every answer of the table view carries, and what bounds a write before it is read.

- `Headers`: a Content-Security-Policy that runs no inline script (the pages' JavaScript is in
  /static files), takes nothing from other origins and lets no other site frame a page; no sniffing of
  content types; no referrer (a join link's token stays out of other servers' logs). The view sets no
  cookie: a write is authenticated by its signature alone, so another site has nothing to ride on.
- `bounded_body`: a request body read up to a limit, refused past it without reading the rest.
- `Buckets`: a token bucket per key, taken once a write's signature is known to be that key's (junk naming
  someone's public key costs them nothing): a burst, then a steady rate; past it a write is 429.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
BODY = 64 * 1024  # bytes a write's request may hold: a command document is a few hundred


class Headers:
    """Put HEADERS on every HTTP answer (pages, JSON, static files, streams, errors)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, sending)


class TooLarge(Exception):
    """A request body past the limit."""


class Abandoned(Exception):
    """A request whose client went away before its body was whole: nobody is left to answer."""


async def bounded_body(request: Request, limit: int = BODY) -> bytes:
    """The request's body, refused (TooLarge) as soon as it is known to pass `limit` bytes: by its
    Content-Length, or while it streams in."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge
    from starlette.requests import ClientDisconnect

    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise TooLarge
    except ClientDisconnect:
        raise Abandoned from None
    return bytes(body)


class Buckets:
    """A token bucket per name: `burst` requests at once, refilled at `rate` a second; the `most` names
    seen last are remembered (an old one forgotten starts full again)."""

    def __init__(self, burst: float = 20, rate: float = 1.0, most: int = 4096):
        self.burst, self.rate, self.most = burst, rate, most
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, name: str) -> float:
        """0 when NAME may go on (a token taken), else the seconds until it may."""
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.pop(name, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
            self._buckets[name] = (tokens - 1 if wait == 0 else tokens, now)
            while len(self._buckets) > self.most:
                self._buckets.popitem(last=False)
        return wait
