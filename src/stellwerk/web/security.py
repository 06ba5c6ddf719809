"""The web app's protections that are not about seats (docs/web.md).

* ``BodyLimit``: an ASGI middleware refusing a request body over its route's limit with 413,
  both by ``Content-Length`` and while a body without one streams in (nothing is processed).
* ``SecurityHeaders``: headers on every response (no sniffing, no framing, no referrer —
  secret links are in URLs —, a content security policy for the pages, no caching of the API).
* ``Csrf``: tokens for the pages' forms, signed with the server's secret (HMAC-SHA256) and
  bound to a scope (e.g. the game id and the seat's token digest) and a time; ``check``
  compares with ``hmac.compare_digest``.  A cross-site page can neither read nor forge one.
  ``same_origin`` is the second line: a form post whose ``Origin`` names another site is
  refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping

from starlette.types import ASGIApp as ASGIApp
from starlette.types import Message as Message
from starlette.types import Receive as Receive
from starlette.types import Scope as Scope
from starlette.types import Send as Send

JSON_LIMIT = 64 * 1024
"""Largest body of an ordinary request (an action, a new game, a form)."""
IMPORT_LIMIT = 2 * 1024 * 1024
"""Largest body of an import (an 18xx.games file or a Rails report)."""
IMPORT_PATHS = ("/api/games/import", "/import")
"""Paths (and their sub-paths) with the import limit."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)

HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "cross-origin-opener-policy": "same-origin",
}


def limit_for(path: str) -> int:
    """The body limit of a request path."""
    for prefix in IMPORT_PATHS:
        if path == prefix or path.startswith(prefix + "/"):
            return IMPORT_LIMIT
    return JSON_LIMIT


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"error": f"the request is larger than {limit} bytes"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class _Oversize(Exception):
    pass


class BodyLimit:
    """Refuse request bodies over ``limit_for(path)`` with 413 (module docstring)."""

    def __init__(self, app: ASGIApp, limit: Callable[[str], int] = limit_for) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(str(scope.get("path", "")))
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    await _too_large(send, limit)
                    return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _Oversize
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _Oversize:
            if not started:
                await _too_large(send, limit)


class SecurityHeaders:
    """Add ``HEADERS`` (and ``cache-control: no-store`` under ``/api/``) to every response,
    keeping any the application set itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = dict(HEADERS)
        if str(scope.get("path", "")).startswith("/api/"):
            extra["cache-control"] = "no-store"

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                for name, value in extra.items():
                    if name.encode() not in have:
                        headers.append((name.encode(), value.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


class Csrf:
    """Form tokens: ``token(scope)`` gives ``TIME.SIGNATURE``; ``check(value, scope)`` is
    True only for a token of this server's secret, this scope, at most ``max_age`` old."""

    def __init__(self, secret: bytes, max_age: float = 24 * 3600) -> None:
        self.secret = secret
        self.max_age = max_age

    def _sign(self, scope: str, stamp: str) -> str:
        message = f"csrf|{scope}|{stamp}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()

    def token(self, scope: str, now: float | None = None) -> str:
        stamp = str(int(time.time() if now is None else now))
        return f"{stamp}.{self._sign(scope, stamp)}"

    def check(self, value: str | None, scope: str, now: float | None = None) -> bool:
        if not value or "." not in value:
            return False
        stamp, signature = value.split(".", 1)
        if not stamp.isdigit():
            return False
        age = (time.time() if now is None else now) - int(stamp)
        if age < 0 or age > self.max_age:
            return False
        return hmac.compare_digest(signature, self._sign(scope, stamp))


def same_origin(headers: Mapping[str, str], host: str) -> bool:
    """Whether a request's ``Origin`` (if it sent one) is this server's ``host``."""
    origin = headers.get("origin")
    if not origin or origin == "null":
        return origin is None
    return bool(origin.split("://", 1)[-1] == host)
